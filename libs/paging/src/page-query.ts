import { ArgsType, Field, Int } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Paging, sorting and text search of every list, as REST query parameters and GraphQL args. */
@ArgsType()
export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1, description: '1-based page number' })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize?: number;

  @ApiPropertyOptional({
    description: 'Comma list of fields, `-` for descending: `lastname,-dateCreated`',
  })
  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
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
