import { ArgsType, Field } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { AfterParam, PageQuery } from '@crm/paging';

/** Fields a people list may be sorted by (`-` for descending); `id` breaks ties. */
export const PEOPLE_SORT_FIELDS = [
  'lastname',
  'firstname',
  'dateCreated',
  'dateModified',
  'customerNumber',
] as const;

/** P2: paging (by `page` or by the cursor `after`), sorting and text search of the people list. */
@ArgsType()
export class PeopleListQuery extends PageQuery {
  @AfterParam()
  after?: string;
}

/** P1: the filters of the people list, with paging and sorting (at least one filter is required). */
@ArgsType()
export class PeopleFilterQuery extends PageQuery {
  @ApiPropertyOptional({
    description:
      "E-mail address (case-insensitive, whole address): matches the person's userMail or an e-mail of any of their business cards",
    maxLength: 320,
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ description: 'Employee status (exact value)', maxLength: 100 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  employeeStatus?: string;

  @AfterParam()
  after?: string;
}
