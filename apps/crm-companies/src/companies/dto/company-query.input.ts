import { ArgsType, Field, ID } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { PageQuery } from '@crm/paging';

/** Fields a company list may be sorted by (`-` for descending); `id` breaks ties. */
export const COMPANY_SORT_FIELDS = [
  'name',
  'dateCreated',
  'dateModified',
  'customerNumber',
] as const;

/** C1: paging, sorting, text search and the filters of the company list. */
@ArgsType()
export class CompaniesQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only companies with this tag' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  tagId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only companies in this lifecycle' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  lifecycleId?: string;
}
