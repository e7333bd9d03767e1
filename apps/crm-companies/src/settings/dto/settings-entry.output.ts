import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output shapes of the company settings lists (S1-S5 under /company-settings), shared by REST
// (OpenAPI) and GraphQL.

@ObjectType()
export class CompanySettingsEntry {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ description: 'System entries are translated by Accept-Language' })
  @Field()
  text!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#4CAF50',
    description: 'Tags and life cycles only',
  })
  @Field(() => String, { nullable: true })
  color!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Industry sectors only' })
  @Field(() => String, { nullable: true })
  category!: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Order among the tenant entries (system entries come first: null)',
  })
  @Field(() => Int, { nullable: true })
  position!: number | null;

  @ApiProperty({ description: 'Given by the system: read-only, same id for every tenant' })
  @Field()
  isSystem!: boolean;
}

@ObjectType()
export class CompanySettingsEntryPage {
  @Field(() => [CompanySettingsEntry]) items!: CompanySettingsEntry[];
  @Field(() => Int) totalResults!: number;
}
