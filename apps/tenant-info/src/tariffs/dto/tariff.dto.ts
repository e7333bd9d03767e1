import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MODULES } from '@crm/messaging';

// Output shapes of TI2 (REST and GraphQL share them). Names and descriptions follow
// Accept-Language; ids and keys are stable and are what clients should compare.

@ObjectType()
export class TariffFunction {
  @ApiProperty({ description: 'Stable key of the function', example: 'people' })
  @Field()
  key!: string;

  @ApiProperty({ description: 'Name in the caller language', example: 'People' })
  @Field()
  name!: string;
}

@ObjectType()
export class TariffModule {
  @ApiProperty({ enum: MODULES, description: 'Module key the gateway checks', example: 'crm' })
  @Field()
  module!: string;

  @ApiProperty({ example: 'CRM' })
  @Field()
  name!: string;

  @ApiProperty({ type: [TariffFunction] })
  @Field(() => [TariffFunction])
  functions!: TariffFunction[];
}

@ObjectType()
export class Tariff {
  @ApiProperty({ example: 'complete' })
  @Field(() => ID)
  id!: string;

  @ApiProperty({ example: 'Complete' })
  @Field()
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  description!: string | null;

  @ApiProperty({ type: [TariffModule], description: 'In the order of MODULES' })
  @Field(() => [TariffModule])
  modules!: TariffModule[];
}
