import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The check-in of a ticket (ET9). */
@ObjectType('EventTicketCheckIn')
export class TicketCheckIn {
  @ApiProperty({ format: 'date-time' }) @Field() checkedInAt!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  location!: string | null;

  @ApiProperty({ description: 'The integration that checked it in' }) @Field() actor!: string;
}

/** The frozen price of a ticket. */
@ObjectType('EventTicketPrice')
export class TicketPrice {
  @ApiProperty({ example: '119.00' }) @Field() gross!: string;
  @ApiProperty({ example: '100.00' }) @Field() net!: string;
  @ApiProperty({ example: '19.00' }) @Field() tax!: string;
  @ApiProperty({ example: '19.00', description: 'Percent' }) @Field() taxRatePercent!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  taxRateId!: string | null;

  @ApiProperty({ example: 'EUR' }) @Field() currency!: string;
}

/** An issued ticket: one per participant of a booking (ET1-ET12). */
@ObjectType()
export class EventTicket {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketTypeId!: string;
  @ApiProperty({ description: 'The ticket type’s name when booked' })
  @Field()
  ticketTypeName!: string;

  @ApiProperty({ enum: ['valid', 'cancelled'] }) @Field() status!: string;
  @ApiProperty() @Field() participantFirstname!: string;
  @ApiProperty() @Field() participantLastname!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  participantEmail!: string | null;

  /** GraphQL: a JSON text (resolved field). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  participantInformation!: Record<string, unknown> | null;

  /** GraphQL: a JSON text (resolved field). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  integrationData!: Record<string, unknown> | null;

  @ApiProperty({ type: TicketPrice }) @Field(() => TicketPrice) price!: TicketPrice;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'The signed code of the QR code (`v1.<keyId>.<payload>.<signature>`, see ET13); null for a cancelled ticket',
  })
  @Field(() => String, { nullable: true })
  code!: string | null;

  @ApiPropertyOptional({ type: TicketCheckIn, nullable: true })
  @Field(() => TicketCheckIn, { nullable: true })
  checkIn!: TicketCheckIn | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it stopped being valid (on the revocation list of ET13 from then)',
  })
  @Field(() => String, { nullable: true })
  revokedAt!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class EventTicketPage {
  @Field(() => [EventTicket]) items!: EventTicket[];
  @Field(() => Int) totalResults!: number;
}

/** Counts of one ticket type (ET4). */
@ObjectType('EventTicketTypeCounts')
export class TicketTypeCounts {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketTypeId!: string;
  @ApiProperty() @Field() ticketTypeName!: string;
  @ApiProperty() @Field(() => Int) total!: number;
  @ApiProperty() @Field(() => Int) valid!: number;
  @ApiProperty() @Field(() => Int) cancelled!: number;
  @ApiProperty({ description: 'Checked in (of any status)' }) @Field(() => Int) checkedIn!: number;
}

/** ET4 */
@ObjectType('EventTicketSummary')
export class TicketSummary {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty() @Field(() => Int) total!: number;
  @ApiProperty() @Field(() => Int) valid!: number;
  @ApiProperty() @Field(() => Int) cancelled!: number;
  @ApiProperty() @Field(() => Int) checkedIn!: number;
  @ApiProperty({ type: [TicketTypeCounts] })
  @Field(() => [TicketTypeCounts])
  ticketTypes!: TicketTypeCounts[];
}

/** A revoked ticket (ET13). */
@ObjectType('RevokedEventTicket')
export class RevokedTicket {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketId!: string;
  @ApiProperty({ format: 'date-time' }) @Field() revokedAt!: string;
}

/** The public key of an event's codes as a JWK (RFC 8037). */
@ObjectType('TicketCodePublicJwk')
export class TicketPublicJwk {
  @ApiProperty({ example: 'OKP' }) @Field() kty!: string;
  @ApiProperty({ example: 'Ed25519' }) @Field() crv!: string;
  @ApiProperty({ description: 'raw public key, base64url' }) @Field() x!: string;
  @ApiProperty({ description: 'the keyId of the codes' }) @Field() kid!: string;
}

/** A key of an event's ticket codes (ET13 `keys`, ET14). */
@ObjectType('TicketSigningKey')
export class TicketSigningKey {
  @ApiProperty({ description: 'Carried in the codes this key signed' }) @Field() keyId!: string;

  @ApiProperty({ description: 'true: the key new codes are signed with (one per event)' })
  @Field()
  current!: boolean;

  @ApiProperty({ description: 'The raw 32-byte public key, base64url' })
  @Field()
  publicKey!: string;

  @ApiProperty({ description: 'SPKI PEM' }) @Field() publicKeyPem!: string;
  @ApiProperty({ type: TicketPublicJwk })
  @Field(() => TicketPublicJwk)
  publicKeyJwk!: TicketPublicJwk;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it was rotated away (ET14); null for the current key',
  })
  @Field(() => String, { nullable: true })
  retiredAt!: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Until when codes signed with this key are accepted. null for the current key (as long as ' +
      'it is current) and for a retired key of an event without dates; else, for a retired key, ' +
      'the event’s end (its endsAt, without one a day after its start): from then on its codes ' +
      'are refused, offline and at check-in (ET9 400 rule retiredKey)',
  })
  @Field(() => String, { nullable: true })
  validUntil!: string | null;
}

/** ET13: what a scanner needs to check codes offline. */
@ObjectType()
export class TicketVerification {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ example: 'Ed25519' }) @Field() algorithm!: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'The current key (new codes carry it; older ones may carry a key of `keys`). The key fields are null while the event has no ticket (no code exists yet)',
  })
  @Field(() => String, { nullable: true })
  keyId!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The raw 32-byte public key, base64url',
  })
  @Field(() => String, { nullable: true })
  publicKey!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'SPKI PEM' })
  @Field(() => String, { nullable: true })
  publicKeyPem!: string | null;

  @ApiPropertyOptional({ type: TicketPublicJwk, nullable: true })
  @Field(() => TicketPublicJwk, { nullable: true })
  publicKeyJwk!: TicketPublicJwk | null;

  @ApiProperty({
    type: [TicketSigningKey],
    description:
      'Every key of the event, the current one (the key fields above) first, then those rotated ' +
      'away (ET14), latest first. A scanner accepts a code whose keyId is listed here, whose ' +
      'signature verifies with that key and whose key’s validUntil has not passed. Empty while ' +
      'the event has no key',
  })
  @Field(() => [TicketSigningKey])
  keys!: TicketSigningKey[];

  @ApiProperty({ description: 'How a code is built and verified' }) @Field() codeFormat!: string;

  @ApiProperty({ type: [RevokedTicket] })
  @Field(() => [RevokedTicket])
  revoked!: RevokedTicket[];

  @ApiProperty({ format: 'date-time' }) @Field() serverTime!: string;
  @ApiProperty({
    format: 'date-time',
    description:
      'The `since` of the next call; the next answer repeats the two minutes before it, so a revocation committed late is not missed',
  })
  @Field()
  nextSince!: string;
}

/** ET9 success. */
@ObjectType('TicketCheckInResult')
export class CheckInResult {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) bookingId!: string;
  @ApiProperty() @Field() ticketTypeName!: string;
  @ApiProperty() @Field() participantFirstname!: string;
  @ApiProperty() @Field() participantLastname!: string;
  @ApiProperty({ format: 'date-time' }) @Field() checkedInAt!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  location!: string | null;

  @ApiProperty({ description: 'true: a retried scan (same nonce) of a check-in made before' })
  @Field()
  retried!: boolean;
}

/** ET5 */
@ObjectType('EventTicketsStatusChanged')
export class TicketsStatusChanged {
  @ApiProperty({ description: 'Tickets whose status changed (others already had it)' })
  @Field(() => Int)
  changed!: number;

  @ApiProperty({
    type: [String],
    description: 'Bookings cancelled because no valid ticket is left',
  })
  @Field(() => [ID])
  cancelledBookingIds!: string[];
}

/** ET6-ET8 */
@ObjectType('EventTicketMailsQueued')
export class TicketMailsQueued {
  @ApiProperty({ description: 'Mails queued (one per recipient)' })
  @Field(() => Int)
  queued!: number;

  @ApiProperty({ type: [String] }) @Field(() => [ID]) mailIds!: string[];
}

/** ET14: the event's keys after a rotation. */
@ObjectType('TicketSigningKeyRotation')
export class SigningKeyRotation {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;

  @ApiProperty({
    type: TicketSigningKey,
    description: 'The new key: every code is signed with it from now on',
  })
  @Field(() => TicketSigningKey)
  current!: TicketSigningKey;

  @ApiPropertyOptional({
    type: TicketSigningKey,
    nullable: true,
    description:
      'The key it replaced: codes it signed are accepted until its validUntil (the event’s end). null when the event had no key',
  })
  @Field(() => TicketSigningKey, { nullable: true })
  retired!: TicketSigningKey | null;
}
