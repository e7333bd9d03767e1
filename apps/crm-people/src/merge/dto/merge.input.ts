import { ArgsType, Field, ID } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, IsUUID } from 'class-validator';

/** Most people merged into one at once: every source's rows move in one transaction. */
export const MERGE_SOURCES_MAX = 50;

/** P20, P21: REST body and GraphQL arguments (`mergePeople(targetId, sourceIds)`). */
@ArgsType()
export class MergePeopleInput {
  @ApiProperty({ format: 'uuid', description: 'The person that remains' })
  @Field(() => ID)
  @IsUUID()
  targetId!: string;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MERGE_SOURCES_MAX,
    description: 'People merged into the target and then deleted (not the target itself)',
  })
  @Field(() => [ID])
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MERGE_SOURCES_MAX)
  // Each id is checked by the service, which names the item: `sourceIds[3]`.
  @IsString({ each: true })
  sourceIds!: string[];
}
