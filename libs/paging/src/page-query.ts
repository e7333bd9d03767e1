import { applyDecorators } from '@nestjs/common';
import { ArgsType, Field, Int } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/**
 * Highest page number: `page=99999999999999999999` is an integer to the validator, but its offset
 * (page - 1) * pageSize is past what PostgreSQL's OFFSET and the database driver take (a 500).
 * A million pages of 500 is far beyond any list here.
 */
export const MAX_PAGE = 1_000_000;

const DEFAULT_SORT_DESCRIPTION =
  'Comma list of fields, `-` for descending: `lastname,-dateCreated`';

/** `page`: the 1-based page of a list, as REST query parameter and GraphQL arg. */
export const PageParam = () =>
  applyDecorators(
    ApiPropertyOptional({
      minimum: 1,
      maximum: MAX_PAGE,
      default: 1,
      description: '1-based page number',
    }),
    Field(() => Int, { nullable: true }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_PAGE),
  );

/** `pageSize`: 1 to MAX_PAGE_SIZE items, DEFAULT_PAGE_SIZE when not given. */
export const PageSizeParam = () =>
  applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
    Field(() => Int, { nullable: true }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_SIZE),
  );

/** `sort`: a comma list of fields (checked by parseSort against the list's own fields). */
export const SortParam = (description = DEFAULT_SORT_DESCRIPTION) =>
  applyDecorators(
    ApiPropertyOptional({ description }),
    Field({ nullable: true }),
    IsOptional(),
    IsString(),
    MaxLength(200),
  );

/**
 * Paging, sorting and text search of every list, as REST query parameters and GraphQL args.
 * A list query without text search declares its fields with PageParam, PageSizeParam and
 * SortParam instead of extending this class: GraphQL cannot drop an inherited arg, and args
 * inherited over two levels come out of order.
 */
@ArgsType()
export class PageQuery {
  @PageParam()
  page?: number;

  @PageSizeParam()
  pageSize?: number;

  @SortParam()
  sort?: string;

  @ApiPropertyOptional({ description: 'Text search' })
  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export function skipTake(query: Pick<PageQuery, 'page' | 'pageSize'>): {
  skip: number;
  take: number;
} {
  const take = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { skip: ((query.page ?? 1) - 1) * take, take };
}
