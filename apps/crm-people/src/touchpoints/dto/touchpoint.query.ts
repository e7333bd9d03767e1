import { ArgsType, Field, ID } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, IsUUID } from 'class-validator';
import { PageQuery } from '@crm/paging';
import { TOUCHPOINT_TYPES } from './touchpoint.input';

export const TOUCHPOINT_SORT_FIELDS = [
  'start',
  'end',
  'priority',
  'dateCreated',
  'dateModified',
  'subject',
  'type',
  'id',
] as const;

/**
 * T1 filters with paging. `from` / `to` bound the start (both inclusive); `q` searches subject
 * and description; sort defaults to `-start` (newest first).
 */
@ArgsType()
export class TouchpointListQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Touchpoints this person is involved in' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  personId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  companyId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Touchpoints carrying this orga tag' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  tagId?: string;

  @ApiPropertyOptional({ enum: TOUCHPOINT_TYPES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsIn(TOUCHPOINT_TYPES)
  type?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Start at or after' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Start at or before' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}
