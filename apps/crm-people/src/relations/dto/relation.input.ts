import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsUUID,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQuery } from '@crm/paging';
import {
  RELATION_CATEGORIES,
  RELATION_TYPE_IDS,
  RelationCategory,
} from '../../settings/relation-types';

@InputType('PersonRelationTypeInput')
export class RelationTypeInput {
  @ApiProperty({ enum: RELATION_TYPE_IDS, description: 'GET /people-settings/relation-types' })
  @Field()
  @IsDefined()
  @IsIn(RELATION_TYPE_IDS)
  typeIdentifier!: string;

  @ApiPropertyOptional({ default: false })
  @Field({ nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean;
}

/** R2, R5, R8: relate the person of the path to `personId`. */
@InputType('CreatePersonRelationInput')
export class CreateRelationInput {
  @ApiProperty({ format: 'uuid', description: 'The person to relate to' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  personId!: string;

  @ApiProperty({ type: RelationTypeInput })
  @Field(() => RelationTypeInput)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RelationTypeInput)
  type!: RelationTypeInput;
}

@InputType('UpdatePersonRelationTypeInput')
export class UpdateRelationTypeInput {
  @ApiPropertyOptional({ enum: RELATION_TYPE_IDS, description: 'Changes the inverse too' })
  @Field({ nullable: true })
  @ValidateIf((o: UpdateRelationTypeInput) => o.typeIdentifier !== undefined)
  @IsIn(RELATION_TYPE_IDS)
  typeIdentifier?: string;

  @ApiPropertyOptional({ description: 'Favorite for this person only' })
  @Field({ nullable: true })
  @ValidateIf((o: UpdateRelationTypeInput) => o.isFavorite !== undefined)
  @IsBoolean()
  isFavorite?: boolean;
}

/** R3: absent fields stay as they are; the related person cannot change (relate anew). */
@InputType('UpdatePersonRelationInput')
export class UpdateRelationInput {
  @ApiProperty({ type: UpdateRelationTypeInput })
  @Field(() => UpdateRelationTypeInput)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateRelationTypeInput)
  type!: UpdateRelationTypeInput;
}

/** R6: one item of a batch update. */
@InputType('UpdatePersonRelationItemInput')
export class UpdateRelationItemInput extends UpdateRelationInput {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  id!: string;
}

/** R1 query: category and paging (REST query parameters and GraphQL arguments). */
@ArgsType()
export class RelationsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: RELATION_CATEGORIES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(RELATION_CATEGORIES)
  category?: RelationCategory;
}

@ArgsType()
export class PersonRelationsArgs extends RelationsQuery {
  @Field(() => ID)
  @IsDefined()
  personId!: string;
}
