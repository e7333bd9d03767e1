import { ArgsType, Field } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { PageQuery } from '@crm/paging';
import { RELATION_CATEGORIES, RelationCategory } from '../relation-types';

/** R9 `?category=` (REST query and GraphQL arguments). */
@ArgsType()
export class RelationTypesQuery {
  @ApiPropertyOptional({ enum: RELATION_CATEGORIES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(RELATION_CATEGORIES)
  category?: RelationCategory;
}

/** GraphQL arguments of peopleSettings: the list and the usual paging. */
@ArgsType()
export class PeopleSettingsArgs extends PageQuery {
  @Field({ description: 'The list, as in the REST path: lifecycles, orga-tags, ...' })
  @IsString()
  @IsNotEmpty()
  list!: string;
}
