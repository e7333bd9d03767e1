import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageQuery } from '@crm/paging';
import {
  DELIVERY_STATUSES,
  MAX_OVERLAP_MINUTES,
  REPLAY_MAX,
  WEBHOOK_EVENT_TYPES,
} from '../webhook-rules';

const URL_DOC =
  'Where deliveries are POSTed: https (http only where the operator allows private addresses), ' +
  'no credentials, at most 2000 characters. The host must resolve to public addresses only ' +
  '(loopback, private, link-local, CGNAT, multicast ... are refused, here and at every delivery).';
const TYPES_DOC = `At least one of: ${WEBHOOK_EVENT_TYPES.join(', ')} (the last four are sent once bookings exist)`;

/** I1 POST: a webhook endpoint of the tenant. */
@InputType('RegisterWebhookEndpointInput')
export class RegisterWebhookEndpointInput {
  @ApiProperty({ description: URL_DOC, example: 'https://hooks.example.com/crm' })
  @Field()
  @IsDefined()
  @IsString()
  @MaxLength(2000)
  url!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiProperty({ description: TYPES_DOC, example: ['person.created'], type: [String] })
  @Field(() => [String])
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  eventTypes!: string[];

  @ApiPropertyOptional({ type: Boolean, description: 'Default true' })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean | null;
}

/** I2 PUT: fields not given stay; `enabled: true` re-enables a disabled endpoint (and clears why). */
@InputType('UpdateWebhookEndpointInput')
export class UpdateWebhookEndpointInput {
  @ApiPropertyOptional({ description: URL_DOC })
  @Field(() => String, { nullable: true })
  @ValidateIf((o: UpdateWebhookEndpointInput) => o.url !== undefined)
  @IsString()
  @MaxLength(2000)
  url?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, description: 'null clears' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ description: TYPES_DOC, type: [String] })
  @Field(() => [String], { nullable: true })
  @ValidateIf((o: UpdateWebhookEndpointInput) => o.eventTypes !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  eventTypes?: string[];

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'false disables (reason: by the owner); true enables again and clears disabledReason, ' +
      'disabledAt and failingSince; pending deliveries are then sent',
  })
  @Field(() => Boolean, { nullable: true })
  @ValidateIf((o: UpdateWebhookEndpointInput) => o.enabled !== undefined)
  @IsBoolean()
  enabled?: boolean;
}

/** I3 GET: the paging of the delivery log and a status filter. */
@ArgsType()
export class WebhookDeliveriesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: string;
}

/** GraphQL webhookDeliveries: the endpoint and the query of I3. */
@ArgsType()
export class WebhookDeliveriesArgs extends WebhookDeliveriesQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  endpointId!: string;
}

/** I5 POST. */
@InputType('ReplayWebhookDeliveriesInput')
export class ReplayWebhookDeliveriesInput {
  @ApiProperty({
    format: 'date-time',
    description: `Every delivery of the endpoint created at or after this time is queued again (at most ${REPLAY_MAX}; more: 400)`,
  })
  @Field()
  @IsDefined()
  @IsISO8601({ strict: true })
  since!: string;
}

/** I6 POST. */
@InputType('RotateWebhookSecretInput')
export class RotateWebhookSecretInput {
  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX_OVERLAP_MINUTES,
    description:
      'How long the old secret still signs (beside the new one), in minutes; default 1440 (24 h), ' +
      'at most 10080 (7 days); 0 drops it at once',
  })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_OVERLAP_MINUTES)
  overlapMinutes?: number | null;
}
