import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { PageQuery } from '@crm/paging';

const IBAN_DOC =
  'IBAN, electronic (DE89370400440532013000) or paper format (DE89 3704 0044 0532 0130 00); ' +
  'checked by country, length, format and check digits, stored in electronic format';
const BIC_DOC =
  "BIC (SWIFT code) of 8 or 11 characters, stored upper case; must be of the IBAN's country";

/** C26 POST: a bank account of the company of the path. */
@InputType('CreateCompanyBankAccountInput')
export class CreateCompanyBankAccountInput {
  @ApiProperty({ description: IBAN_DOC, example: 'DE89 3704 0044 0532 0130 00' })
  @Field()
  @IsDefined()
  @IsString()
  @MaxLength(50)
  iban!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: BIC_DOC,
    example: 'COBADEFFXXX',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  bic?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Commerzbank' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  bankName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Acme GmbH' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  accountHolder?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'Marks the favorite; the previous favorite loses it. The first account of a company ' +
      'becomes the favorite anyway.',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;
}

/** C27 PUT: fields not given stay as they are; null clears bic, bankName and accountHolder. */
@InputType('UpdateCompanyBankAccountInput')
export class UpdateCompanyBankAccountInput {
  @ApiPropertyOptional({ description: IBAN_DOC })
  @Field(() => String, { nullable: true })
  @ValidateIf((o: UpdateCompanyBankAccountInput) => o.iban !== undefined)
  @IsString()
  @MaxLength(50)
  iban?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: BIC_DOC })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  bic?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  bankName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  accountHolder?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'true takes the favorite from the previous one; false on the favorite passes it to the ' +
      'first account (which may be this one: a company with accounts always has one favorite)',
  })
  @Field(() => Boolean, { nullable: true })
  @ValidateIf((o: UpdateCompanyBankAccountInput) => o.isFavorite !== undefined)
  @IsBoolean()
  isFavorite?: boolean;
}

/** GraphQL arguments of companyBankAccounts: the company and the paging of C26 GET. */
@ArgsType()
export class CompanyBankAccountsArgs extends PageQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  companyId!: string;
}
