import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A document of a person (P22, P23): the metadata; the bytes (upload, download) are REST only. */
@ObjectType()
export class PersonDocument {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  id!: string;

  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  personId!: string;

  @ApiProperty({ description: 'File name as uploaded, sanitized', example: 'Vertrag 2024.pdf' })
  @Field()
  fileName!: string;

  @ApiProperty({ description: 'Media type the client declared (application/octet-stream if none)' })
  @Field()
  contentType!: string;

  @ApiProperty({ description: 'Size in bytes' })
  @Field(() => Int)
  size!: number;

  @ApiProperty({
    description: 'Download address (P23)',
    example: '/v1/crm/people/{id}/documents/{documentId}',
  })
  @Field({ description: 'Download address (P23), relative to the API host' })
  url!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Integration that uploaded it',
  })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Field()
  dateCreated!: string;
}

@ObjectType()
export class PersonDocumentPage {
  @Field(() => [PersonDocument]) items!: PersonDocument[];
  @Field(() => Int) totalResults!: number;
}

/** Answer of a delete of a file resource (P18, P23 DELETE). */
@ObjectType('PersonFileDeleted')
export class DeletedFile {
  @ApiProperty({ description: 'Id of the deleted document, or of the person for P18' })
  @Field(() => ID, { description: 'The document removed, or the person for P18' })
  id!: string;

  @ApiProperty()
  @Field()
  deleted!: boolean;
}
