import { Field, ID, ObjectType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

@ObjectType()
export class OnlineMeetingPlatformView {
  @ApiProperty({ example: 'zoom' }) @Field(() => ID) id!: string;
  @ApiProperty({ example: 'Zoom', description: 'Product name; `other` translated' })
  @Field()
  name!: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://zoom.us/j/<meeting id>' })
  @Field(() => String, { nullable: true })
  urlHint!: string | null;
}

@ObjectType()
export class TaxRatePeriodView {
  @ApiProperty({ example: '2007-01-01', description: 'ISO date, inclusive' })
  @Field()
  validFrom!: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'ISO date, inclusive; null: open',
  })
  @Field(() => String, { nullable: true })
  validTo!: string | null;
  @ApiProperty({ example: '19.00', description: 'Percent, decimal string' }) @Field() rate!: string;
}

@ObjectType()
export class TaxRateView {
  @ApiProperty({ example: 'de-standard' }) @Field(() => ID) id!: string;
  @ApiProperty({ example: 'Germany: standard rate', description: 'Translated' })
  @Field()
  name!: string;
  @ApiProperty({ example: 'DE', description: 'ISO 3166-1 alpha-2' }) @Field() country!: string;
  @ApiProperty({ example: 'standard' }) @Field() kind!: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '19.00',
    description: 'The rate today (UTC date); null if no period covers today',
  })
  @Field(() => String, { nullable: true })
  rate!: string | null;
  @ApiProperty({ type: [TaxRatePeriodView] })
  @Field(() => [TaxRatePeriodView])
  periods!: TaxRatePeriodView[];
}

@ObjectType()
export class OnlineMeetingPlatformPage {
  @Field(() => [OnlineMeetingPlatformView]) items!: OnlineMeetingPlatformView[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType()
export class TaxRatePage {
  @Field(() => [TaxRateView]) items!: TaxRateView[];
  @Field(() => Int) totalResults!: number;
}
