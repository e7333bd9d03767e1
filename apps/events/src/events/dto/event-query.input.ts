import { ArgsType, Field, ID } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsISO8601, IsOptional, IsUUID, Matches } from 'class-validator';
import { PageQuery, queryBoolean } from '@crm/paging';

/** Fields an event list may be sorted by (`-` for descending); `id` breaks ties. */
export const EVENT_SORT_FIELDS = ['startsAt', 'title', 'dateCreated'] as const;

/** A four-digit year first: no signed or extended years the database cannot hold. */
const YEAR_FIRST = /^\d{4}-/;

/** E1: paging, sorting, text search (title, subtitle) and the filters of the event list. */
@ArgsType()
export class EventsQuery extends PageQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only events that end at or after this instant (overlap with from..to)',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(YEAR_FIRST)
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only events that start before this instant (overlap with from..to)',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(YEAR_FIRST)
  to?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only events of this category' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  categoryId?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'Only published (true) or unpublished (false) events',
  })
  @Field(() => Boolean, { nullable: true })
  @Transform(queryBoolean)
  @IsOptional()
  @IsBoolean()
  published?: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only events on this website' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  websiteId?: string;
}
