import { Directive, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CompanyAddress,
  CompanyEmail,
  CompanyPhone,
} from '../../contact-data/dto/contact-data.output';

// Output shapes of the Company resource (C1-C14). The same classes describe REST (OpenAPI) and
// GraphQL, so both answer with identical field names.

/** An entry of a company settings list as embedded in a company: id and translated text. */
@ObjectType()
export class CompanyListEntry {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() text!: string;
}

@ObjectType()
export class CompanyReferenceNumber {
  @ApiProperty({ type: CompanyListEntry, description: 'An entry of reference-number-types' })
  @Field(() => CompanyListEntry)
  type!: CompanyListEntry;

  @ApiProperty() @Field() number!: string;
}

@ObjectType()
export class CompanySocialMedia {
  @ApiProperty({ description: 'e.g. linkedin, xing, x' }) @Field() type!: string;
  @ApiProperty() @Field() link!: string;
}

@ObjectType()
export class CompanyTagEntry {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() text!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  color!: string | null;
}

@ObjectType()
export class CompanyLifecycle {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) lifecycleId!: string;
  @ApiProperty() @Field() text!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  color!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  dateChanged!: string | null;
}

@ObjectType()
export class CompanyNoteOutput {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 10000 })
  @Field(() => String, { nullable: true })
  note!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  createdByUserId!: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  modifiedByUserId!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class CompanyLogoLink {
  @ApiProperty({
    example: '/v1/crm/companies/3f0c.../logo',
    description: 'Where C28 serves the bytes',
  })
  @Field()
  url!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
@Directive('@key(fields: "id")')
export class Company {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ maxLength: 200 }) @Field() name!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  nameAddition!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'As given' })
  @Field(() => String, { nullable: true })
  website!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    readOnly: true,
    description: 'Host of website, lower-cased, without www. (C3 finds the company by it)',
  })
  @Field(() => String, { nullable: true })
  websiteDomain!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  customerNumber!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  vatId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  taxNumber!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true })
  @Field(() => String, { nullable: true })
  foundingDate!: string | null;
  @ApiPropertyOptional({ type: CompanyListEntry, nullable: true })
  @Field(() => CompanyListEntry, { nullable: true })
  legalForm!: CompanyListEntry | null;
  @ApiPropertyOptional({ type: CompanyListEntry, nullable: true })
  @Field(() => CompanyListEntry, { nullable: true })
  industrySector!: CompanyListEntry | null;
  @ApiPropertyOptional({ type: CompanyListEntry, nullable: true })
  @Field(() => CompanyListEntry, { nullable: true })
  employeeCount!: CompanyListEntry | null;
  @ApiPropertyOptional({ type: CompanyListEntry, nullable: true })
  @Field(() => CompanyListEntry, { nullable: true })
  customerCount!: CompanyListEntry | null;
  @ApiProperty({ type: [CompanyReferenceNumber] })
  @Field(() => [CompanyReferenceNumber])
  referenceNumbers!: CompanyReferenceNumber[];
  @ApiProperty({ type: [CompanySocialMedia] })
  @Field(() => [CompanySocialMedia])
  socialMedias!: CompanySocialMedia[];
  @ApiPropertyOptional({ type: CompanyLifecycle, nullable: true })
  @Field(() => CompanyLifecycle, { nullable: true })
  lifecycle!: CompanyLifecycle | null;
  @ApiProperty({ type: [CompanyTagEntry] })
  @Field(() => [CompanyTagEntry])
  tags!: CompanyTagEntry[];
  @ApiPropertyOptional({ type: CompanyNoteOutput, nullable: true })
  @Field(() => CompanyNoteOutput, { nullable: true })
  note!: CompanyNoteOutput | null;
  @ApiProperty({ type: [CompanyAddress], readOnly: true, description: 'Written by C15-C17' })
  @Field(() => [CompanyAddress])
  addresses!: CompanyAddress[];
  @ApiProperty({ type: [CompanyPhone], readOnly: true, description: 'Written by C19-C21' })
  @Field(() => [CompanyPhone])
  phones!: CompanyPhone[];
  @ApiProperty({ type: [CompanyEmail], readOnly: true, description: 'Written by C23-C25' })
  @Field(() => [CompanyEmail])
  emails!: CompanyEmail[];
  @ApiPropertyOptional({
    type: CompanyLogoLink,
    nullable: true,
    readOnly: true,
    description: 'Written by C28',
  })
  @Field(() => CompanyLogoLink, { nullable: true })
  logo!: CompanyLogoLink | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'X-Integration-Name' })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'X-Caller-Id' })
  @Field(() => String, { nullable: true })
  createdByUserId!: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  modifiedByUserId!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

/** A page of companies (GraphQL; REST puts the items in data and the total in metaData). */
@ObjectType()
export class CompanyPage {
  @Field(() => [Company])
  items!: Company[];

  @Field(() => Int, { description: 'Number of companies across all pages' })
  totalResults!: number;
}
