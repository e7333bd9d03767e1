import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A file (document) of an event (E13, E14): the metadata; the bytes are REST only. */
@ObjectType('EventFile')
export class EventFileOutput {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ description: 'File name as uploaded, sanitized', example: 'Agenda.pdf' })
  @Field()
  fileName!: string;
  @ApiProperty({ description: 'Media type the client declared (application/octet-stream if none)' })
  @Field()
  contentType!: string;
  @ApiProperty({ description: 'Size in bytes' }) @Field(() => Int) size!: number;
  @ApiProperty({
    description: 'Download address (E14), relative to the API host',
    example: '/v1/crm/events/{id}/files/{fileId}',
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
export class EventFilePage {
  @Field(() => [EventFileOutput]) items!: EventFileOutput[];
  @Field(() => Int) totalResults!: number;
}
