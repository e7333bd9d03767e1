import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A webhook endpoint (I1, I2): its secret is never read back. */
@ObjectType()
export class WebhookEndpoint {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() url!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  description!: string | null;

  @ApiProperty({ type: [String] }) @Field(() => [String]) eventTypes!: string[];
  @ApiProperty() @Field() enabled!: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Why it is disabled: a 410 Gone from the receiver, failing for days, or the owner',
  })
  @Field(() => String, { nullable: true })
  disabledReason!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Field(() => String, { nullable: true })
  disabledAt!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'First failure of the current run of failures (null after a success)',
  })
  @Field(() => String, { nullable: true })
  failingSince!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'Until when the secret before the last rotation still signs',
  })
  @Field(() => String, { nullable: true })
  previousSecretExpiresAt!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

/** I1 POST answer: the endpoint and, this once, its secret. */
@ObjectType()
export class RegisteredWebhookEndpoint extends WebhookEndpoint {
  @ApiProperty({
    description: 'Standard Webhooks signing secret (whsec_...): shown only now; store it',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  @Field()
  secret!: string;
}

@ObjectType()
export class WebhookEndpointPage {
  @Field(() => [WebhookEndpoint]) items!: WebhookEndpoint[];
  @Field(() => Int) totalResults!: number;
}

/** I6 answer. */
@ObjectType()
export class RotatedWebhookSecret {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ description: 'The new secret: shown only now' }) @Field() secret!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'The old secret signs too (a second signature) until then',
  })
  @Field(() => String, { nullable: true })
  previousSecretExpiresAt!: string | null;
}

@ObjectType()
export class WebhookEndpointRemoved {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
}

/** One HTTP attempt of a delivery. */
@ObjectType()
export class WebhookAttempt {
  @ApiProperty({ format: 'date-time' }) @Field() attemptedAt!: string;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Int, { nullable: true })
  responseCode!: number | null;

  @ApiProperty() @Field(() => Int) durationMs!: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'What went wrong: a network error, or the start of the answer of a non-2xx',
  })
  @Field(() => String, { nullable: true })
  error!: string | null;
}

/** A message to one endpoint (I3): `messageId` is the `webhook-id` header, the same on every retry. */
@ObjectType()
export class WebhookDelivery {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) endpointId!: string;
  @ApiProperty({ format: 'uuid', description: 'The webhook-id header' })
  @Field(() => ID)
  messageId!: string;
  @ApiProperty({ example: 'person.created' }) @Field() eventType!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] }) @Field() status!: string;
  @ApiProperty({ description: 'Attempts since it was (re)queued' })
  @Field(() => Int)
  attempts!: number;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Field(() => String, { nullable: true })
  nextAttemptAt!: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Int, { nullable: true })
  lastResponseCode!: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Int, { nullable: true })
  lastDurationMs!: number | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Field(() => String, { nullable: true })
  dateDelivered!: string | null;

  @ApiProperty({
    type: [WebhookAttempt],
    description: 'The latest attempts (up to 20), newest first',
  })
  @Field(() => [WebhookAttempt])
  attemptLog!: WebhookAttempt[];
}

@ObjectType()
export class WebhookDeliveryPage {
  @Field(() => [WebhookDelivery]) items!: WebhookDelivery[];
  @Field(() => Int) totalResults!: number;
}

/** I4 answer. */
@ObjectType()
export class RedeliveredWebhook {
  @ApiProperty({ type: WebhookDelivery }) @Field(() => WebhookDelivery) delivery!: WebhookDelivery;

  @ApiProperty({
    description: 'false: the endpoint is disabled, the delivery waits until it is enabled (I2)',
  })
  @Field()
  endpointEnabled!: boolean;
}

/** I5 answer. */
@ObjectType()
export class ReplayedWebhookDeliveries {
  @ApiProperty({ description: 'Deliveries queued again' }) @Field(() => Int) queued!: number;

  @ApiProperty({
    description: 'false: the endpoint is disabled, they wait until it is enabled (I2)',
  })
  @Field()
  endpointEnabled!: boolean;
}
