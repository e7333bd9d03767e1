import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';

/** Answer of a delete of a file resource (C28 DELETE logo, C32 DELETE document). */
@ObjectType()
export class CompanyFileDeleted {
  @ApiProperty({ format: 'uuid', description: 'The document removed, or the company for C28' })
  @Field(() => ID)
  id!: string;

  @ApiProperty() @Field() deleted!: boolean;
}
