import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQuery } from '@crm/paging';

export const RELATION_DIRECTIONS = ['outgoing', 'incoming'] as const;
export type RelationDirection = (typeof RELATION_DIRECTIONS)[number];

const TYPE_DOC =
  'An entry of the company settings list relation-types (GET /company-settings/relation-types)';
const DATE_DOC = 'ISO 8601 date or date-time (UTC)';

@InputType('CompanyRelationTypeRefInput')
export class CompanyRelationTypeRefInput {
  @ApiProperty({ format: 'uuid', description: TYPE_DOC })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  id!: string;
}

/** C29 POST: relates the company of the path (from) to relatedCompanyId (to). */
@InputType('CreateCompanyRelationInput')
export class CreateCompanyRelationInput {
  @ApiProperty({ format: 'uuid', description: 'The other company, of the same tenant' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  relatedCompanyId!: string;

  @ApiProperty({ type: CompanyRelationTypeRefInput })
  @Field(() => CompanyRelationTypeRefInput)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CompanyRelationTypeRefInput)
  relationType!: CompanyRelationTypeRefInput;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: DATE_DOC })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: `${DATE_DOC}; not before since`,
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string | null;
}

/**
 * C30 PUT: fields not given stay as they are, null clears since, until and note. The companies
 * of a relation do not change (delete it and relate anew).
 */
@InputType('UpdateCompanyRelationInput')
export class UpdateCompanyRelationInput {
  @ApiPropertyOptional({ type: CompanyRelationTypeRefInput })
  @Field(() => CompanyRelationTypeRefInput, { nullable: true })
  @ValidateIf((o: UpdateCompanyRelationInput) => o.relationType !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => CompanyRelationTypeRefInput)
  relationType?: CompanyRelationTypeRefInput;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: DATE_DOC })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: `${DATE_DOC}; not before since`,
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string | null;
}

/** C29 GET query: paging plus the direction and the type. */
@ArgsType()
export class CompanyRelationsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: RELATION_DIRECTIONS, description: 'Only one direction' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(RELATION_DIRECTIONS)
  direction?: RelationDirection;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only relations of this type' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  relationTypeId?: string;
}

@ArgsType()
export class CompanyRelationsArgs extends CompanyRelationsQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  companyId!: string;
}
