import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { TenantScoped } from './crm';

// Outbox events of the events service (JetStream). bookings-invitations keeps its own copy of
// what a booking needs of an event (EventChangedEvent), so a public booking never waits on events.

/** bookings-invitations asks whether events are the tenant's (before its copy of them arrived). */
export class EventsExistRequest extends TenantScoped {
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) eventIds!: string[];
}

export interface EventsExistReply {
  /** Of eventIds, those that are not events of the tenant, in the order asked. */
  missingEventIds: string[];
}

/** An event was duplicated (E9): the copy's ticket types follow from the source's. */
export class EventDuplicatedEvent extends TenantScoped {
  @IsUUID() sourceEventId!: string;
  @IsUUID() eventId!: string;
}

/** Events were deleted (E5, E6): their bookings, invitations, tickets and ticket types go. */
export class EventsDeletedEvent extends TenantScoped {
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) eventIds!: string[];
}

/** A website of an event as the snapshot carries it. */
export class EventWebsiteLink {
  @IsUUID() id!: string;
  @IsString() @IsNotEmpty() @MaxLength(2000) invitationLink!: string;
  /** The website's waiting-list page with `{token}` (an entry's token); absent from older producers. */
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(2000) waitingListLink?: string;
}

/**
 * An event was created or changed (also published or unpublished): what other services keep of
 * it. `sequence` grows with every change, so a consumer drops a snapshot older than its copy.
 */
export class EventChangedEvent extends TenantScoped {
  @IsUUID() eventId!: string;
  @IsInt() @Min(0) sequence!: number;
  @IsString() @IsNotEmpty() title!: string;
  @IsOptional() @IsISO8601() startsAt!: string | null;
  @IsOptional() @IsISO8601() endsAt!: string | null;
  @IsString() @IsNotEmpty() timeZone!: string;
  @IsOptional() @IsInt() @Min(0) capacity!: number | null;
  @IsBoolean() published!: boolean;
  @IsString() status!: string;
  @IsOptional() @IsString() taxRateId!: string | null;
  /** The tiers of the event's cancellation condition at this moment (frozen onto bookings). */
  @IsOptional() @IsArray() cancellationTiers!: unknown[] | null;
  @IsOptional() @IsUUID() bookingFormFieldSetId!: string | null;
  /**
   * The fields of that booking form field set at this moment (a booking's answers are checked
   * against them), null when the event has none. Absent in messages of older producers: the
   * consumer then keeps what it has.
   */
  @IsOptional() @IsArray() bookingFormFields?: unknown[] | null;
  @IsArray() @IsUUID('all', { each: true }) websiteIds!: string[];
  /**
   * Per website of the event, the link of an invitation mail: the website's invitation link
   * template with `{websiteUrl}` filled in, `{token}` left for the invitation's token. Absent in
   * messages of older producers: the consumer then keeps what it has.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => EventWebsiteLink)
  websites?: EventWebsiteLink[];
  /**
   * The event's sale terms: minutes a public seat hold keeps its seats; hours after a booking
   * until it is cancelled unpaid (null: never); hours before that deadline the booker is
   * reminded (null: no reminder). Absent in messages of older producers: the consumer then
   * keeps what it has (a new copy: 15, null, null).
   */
  @IsOptional() @IsInt() @Min(1) holdMinutes?: number;
  @IsOptional() @IsInt() @Min(1) paymentDeadlineHours?: number | null;
  @IsOptional() @IsInt() @Min(1) paymentReminderHours?: number | null;
  /** At most this many tickets per booker e-mail over its bookings of the event (null: no limit; absent: keep). */
  @IsOptional() @IsInt() @Min(1) maxTicketsPerBuyer?: number | null;
  /** Minutes a waiting-list offer waits to be booked (absent: keep; a new copy: 1440). */
  @IsOptional() @IsInt() @Min(1) waitingListOfferMinutes?: number;
}

/** An event became published (E11): webhooks `event.published`. */
export class EventPublishedEvent extends TenantScoped {
  @IsUUID() eventId!: string;
  @IsString() @IsNotEmpty() title!: string;
  @IsOptional() @IsISO8601() startsAt!: string | null;
  @IsArray() @IsUUID('all', { each: true }) websiteIds!: string[];
}

/** Every event of website `websiteId` moved to `targetWebsiteId` (W11); references follow. */
export class WebsiteMigratedEvent extends TenantScoped {
  @IsUUID() websiteId!: string;
  @IsUUID() targetWebsiteId!: string;
  @IsArray() @IsUUID('all', { each: true }) eventIds!: string[];
}
