import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';

/** Answer of a delete of a file or image (E14, E16, W15). */
@ObjectType('EventsFileDeleted')
export class EventsFileDeleted {
  @ApiProperty({ format: 'uuid', description: 'The file or image removed' })
  @Field(() => ID)
  id!: string;

  @ApiProperty() @Field() deleted!: boolean;
}
