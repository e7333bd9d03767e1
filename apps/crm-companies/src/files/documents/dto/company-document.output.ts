import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A document of a company (C31, C32): the metadata; the bytes are REST only. */
@ObjectType()
export class CompanyDocument {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) companyId!: string;

  @ApiProperty({
    description: 'File name as uploaded, sanitized',
    example: 'Rahmenvertrag 2024.pdf',
  })
  @Field()
  fileName!: string;

  @ApiProperty({ description: 'Media type the client declared (application/octet-stream if none)' })
  @Field()
  contentType!: string;

  @ApiProperty({ description: 'Size in bytes' })
  @Field(() => Int)
  size!: number;

  @ApiProperty({
    description: 'Download address (C32), relative to the API host',
    example: '/v1/crm/companies/{id}/documents/{documentId}',
  })
  @Field()
  url!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Integration that uploaded it',
  })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
}

@ObjectType()
export class CompanyDocumentPage {
  @Field(() => [CompanyDocument]) items!: CompanyDocument[];
  @Field(() => Int) totalResults!: number;
}
