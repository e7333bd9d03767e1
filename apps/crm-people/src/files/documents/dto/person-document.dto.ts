import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A document of a person (P22, P23). REST only: files do not travel over GraphQL. */
export class PersonDocument {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  personId!: string;

  @ApiProperty({ description: 'File name as uploaded, sanitized', example: 'Vertrag 2024.pdf' })
  fileName!: string;

  @ApiProperty({ description: 'Media type the client declared (application/octet-stream if none)' })
  contentType!: string;

  @ApiProperty({ description: 'Size in bytes' })
  size!: number;

  @ApiProperty({
    description: 'Download address (P23)',
    example: '/v1/crm/people/{id}/documents/{documentId}',
  })
  url!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Integration that uploaded it',
  })
  createdBy!: string | null;

  @ApiProperty({ format: 'date-time' })
  dateCreated!: string;
}

/** Answer of a delete of a file resource (P18, P23 DELETE). */
export class DeletedFile {
  @ApiProperty({ description: 'Id of the deleted document, or of the person for P18' })
  id!: string;

  @ApiProperty()
  deleted!: boolean;
}
