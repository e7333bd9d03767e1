import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export enum SubscriptionStatus {
  TRIAL = 'TRIAL',
  ACTIVE = 'ACTIVE',
  PAST_DUE = 'PAST_DUE',
  CANCELLED = 'CANCELLED',
}
registerEnumType(SubscriptionStatus, { name: 'SubscriptionStatus' });

/** TI3. (GraphQL reserves the type name `Subscription` for its root, hence the prefix.) */
@ObjectType()
export class TenantSubscription {
  @ApiProperty({ example: 'demo' })
  @Field(() => ID)
  tenantId!: string;

  @ApiProperty({ enum: SubscriptionStatus, enumName: 'SubscriptionStatus' })
  @Field(() => SubscriptionStatus)
  status!: SubscriptionStatus;

  @ApiProperty({ example: 'monthly', description: 'monthly or yearly' })
  @Field()
  billingPeriod!: string;

  @ApiProperty({ format: 'date-time' })
  @Field()
  startDate!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the subscription ends (null: runs until cancelled)',
  })
  @Field(() => String, { nullable: true })
  endDate!: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Next renewal (null when the subscription ends or is cancelled)',
  })
  @Field(() => String, { nullable: true })
  renewsAt!: string | null;

  @ApiProperty({ example: 1 })
  @Field(() => Int)
  seats!: number;
}
