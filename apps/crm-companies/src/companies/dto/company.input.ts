import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDateString,
  IsDefined,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

// Bodies of C4 (create), C5 (update), C8 (batches) and C14 (validate). Contact data, logo and the
// read-only fields are not accepted here (unknown fields are refused): C15-C25 and C28 own them.

export const NAME_MAX = 200;
export const WEBSITE_MAX = 500;
export const TAGS_MAX = 200;
export const LIST_ITEMS_MAX = 50;

/** Texts are stored trimmed; an optional text that is empty after trimming is no value (null). */
const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;
const trimmedOrNull = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() || null : value;

/** An entry of a company settings list, given by id. */
@InputType('CompanyListEntryInput')
export class CompanyListEntryInput {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  id!: string;
}

@InputType('CompanyReferenceNumberInput')
export class CompanyReferenceNumberInput {
  @ApiProperty({ type: CompanyListEntryInput, description: 'An entry of reference-number-types' })
  @Field(() => CompanyListEntryInput)
  @IsDefined()
  @ValidateNested()
  @Type(() => CompanyListEntryInput)
  type!: CompanyListEntryInput;

  @ApiProperty({ maxLength: NAME_MAX, example: 'HRB 12345' })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  number!: string;
}

@InputType('CompanySocialMediaInput')
export class CompanySocialMediaInput {
  @ApiProperty({ maxLength: 50, example: 'linkedin' })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  type!: string;

  @ApiProperty({ maxLength: 2000, example: 'https://www.linkedin.com/company/acme' })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2000)
  link!: string;
}

/** A tag of the `tags` list: by id, or by text (found in any case, else created). */
@InputType('CompanyTagInput')
export class CompanyTagInput {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  id?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: NAME_MAX,
    description: 'Used when id is absent',
  })
  @Field(() => String, { nullable: true })
  @Transform(trimmed)
  @ValidateIf((o: CompanyTagInput) => !o.id)
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  text?: string | null;
}

@InputType('CompanyLifecycleInput')
export class CompanyLifecycleInput {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  lifecycleId?: string | null;
}

/** Every field of a company body but the name (whose rule differs between create and update). */
@InputType({ isAbstract: true })
export abstract class CompanyFieldsInput {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @Transform(trimmedOrNull)
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  nameAddition?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: WEBSITE_MAX,
    example: 'https://www.example.com',
    description:
      'An http(s) URL or a bare host (example.com), stored as given; websiteDomain is derived from it',
  })
  @Field(() => String, { nullable: true })
  @Transform(trimmedOrNull)
  @IsOptional()
  @IsString()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: false, require_tld: true })
  @MaxLength(WEBSITE_MAX)
  website?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @Transform(trimmedOrNull)
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  customerNumber?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50, example: 'DE123456789' })
  @Field(() => String, { nullable: true })
  @Transform(trimmedOrNull)
  @IsOptional()
  @IsString()
  @MaxLength(50)
  vatId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @Field(() => String, { nullable: true })
  @Transform(trimmedOrNull)
  @IsOptional()
  @IsString()
  @MaxLength(50)
  taxNumber?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date', nullable: true, example: '1998-09-04' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsDateString({ strict: true })
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  foundingDate?: string | null;

  @ApiPropertyOptional({ type: CompanyListEntryInput, nullable: true, description: 'legal-forms' })
  @Field(() => CompanyListEntryInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompanyListEntryInput)
  legalForm?: CompanyListEntryInput | null;

  @ApiPropertyOptional({
    type: CompanyListEntryInput,
    nullable: true,
    description: 'industry-sectors',
  })
  @Field(() => CompanyListEntryInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompanyListEntryInput)
  industrySector?: CompanyListEntryInput | null;

  @ApiPropertyOptional({
    type: CompanyListEntryInput,
    nullable: true,
    description: 'employee-counts',
  })
  @Field(() => CompanyListEntryInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompanyListEntryInput)
  employeeCount?: CompanyListEntryInput | null;

  @ApiPropertyOptional({
    type: CompanyListEntryInput,
    nullable: true,
    description: 'customer-counts',
  })
  @Field(() => CompanyListEntryInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompanyListEntryInput)
  customerCount?: CompanyListEntryInput | null;

  @ApiPropertyOptional({
    type: [CompanyReferenceNumberInput],
    nullable: true,
    maxItems: LIST_ITEMS_MAX,
  })
  @Field(() => [CompanyReferenceNumberInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIST_ITEMS_MAX)
  @ValidateNested({ each: true })
  @Type(() => CompanyReferenceNumberInput)
  referenceNumbers?: CompanyReferenceNumberInput[] | null;

  @ApiPropertyOptional({
    type: [CompanySocialMediaInput],
    nullable: true,
    maxItems: LIST_ITEMS_MAX,
  })
  @Field(() => [CompanySocialMediaInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIST_ITEMS_MAX)
  @ValidateNested({ each: true })
  @Type(() => CompanySocialMediaInput)
  socialMedias?: CompanySocialMediaInput[] | null;

  @ApiPropertyOptional({ type: CompanyLifecycleInput, nullable: true, description: 'lifecycles' })
  @Field(() => CompanyLifecycleInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompanyLifecycleInput)
  lifecycle?: CompanyLifecycleInput | null;

  @ApiPropertyOptional({ type: [CompanyTagInput], nullable: true, maxItems: TAGS_MAX })
  @Field(() => [CompanyTagInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TAGS_MAX)
  @ValidateNested({ each: true })
  @Type(() => CompanyTagInput)
  tags?: CompanyTagInput[] | null;
}

/** C4 body (and each item of POST /companies/batch): name required, all else optional. */
@InputType('CreateCompanyInput')
export class CreateCompanyInput extends CompanyFieldsInput {
  @ApiProperty({ minLength: 1, maxLength: NAME_MAX, example: 'ACME GmbH' })
  @Field()
  @Transform(trimmed)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name!: string;
}

/** C5 body: an absent field stays unchanged, null clears it (the name cannot be cleared). */
@InputType('UpdateCompanyInput')
export class UpdateCompanyInput extends CompanyFieldsInput {
  @ApiPropertyOptional({ minLength: 1, maxLength: NAME_MAX, description: 'Absent: unchanged' })
  @Field(() => String, { nullable: true })
  @Transform(trimmed)
  @ValidateIf((_o: UpdateCompanyInput, v: unknown) => v !== undefined)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;
}
