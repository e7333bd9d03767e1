import {
  addOutboxEvent,
  EventChangedEvent,
  EventDuplicatedEvent,
  EventPublishedEvent,
  EventsDeletedEvent,
  Subjects,
} from '@crm/messaging';
import { BATCH_MAX } from '@crm/errors';
import { invitationLinkOf, waitingListLinkOf } from '../websites/invitation-link';
import type { Tx } from '../database/tx';
import type { EventRecord } from './events.repository';

// The events service's outbox messages about events, always written in the transaction of the
// change they announce (libs/messaging/src/outbox/README.md).

/** What the snapshot carries of the event's settings entries, read in the announcing write. */
export interface SnapshotSettings {
  /** The tiers of the event's cancellation condition, null when none. */
  cancellationTiers: unknown[] | null;
  /** The fields of the event's booking form field set, null when none. */
  bookingFormFields: unknown[] | null;
}

/** events.events.changed: the snapshot other services keep (bookings-invitations). */
export function changedEvent(
  r: EventRecord,
  { cancellationTiers, bookingFormFields }: SnapshotSettings,
): EventChangedEvent {
  return {
    tenantId: r.tenantId,
    eventId: r.id,
    sequence: r.sequence,
    title: r.title,
    startsAt: r.startsAt?.toISOString() ?? null,
    endsAt: r.endsAt?.toISOString() ?? null,
    timeZone: r.timeZone,
    capacity: r.capacity,
    published: r.published,
    status: r.status,
    taxRateId: r.taxRateId,
    cancellationTiers,
    bookingFormFieldSetId: r.bookingFormFieldSetId,
    bookingFormFields,
    websiteIds: r.websites.map((w) => w.websiteId).sort(),
    websites: r.websites
      .map((w) => ({
        id: w.websiteId,
        invitationLink: invitationLinkOf(w.website.url, w.website.invitationLinkTemplate),
        waitingListLink: waitingListLinkOf(w.website.url),
      }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    holdMinutes: r.holdMinutes,
    waitingListOfferMinutes: r.waitingListOfferMinutes,
    paymentDeadlineHours: r.paymentDeadlineHours,
    paymentReminderHours: r.paymentReminderHours,
    maxTicketsPerBuyer: r.maxTicketsPerBuyer,
  };
}

export const addChanged = (tx: Tx, r: EventRecord, settings: SnapshotSettings) =>
  addOutboxEvent(tx, {
    tenantId: r.tenantId,
    subject: Subjects.events.eventChanged,
    payload: changedEvent(r, settings),
  });

export const addPublished = (tx: Tx, r: EventRecord) => {
  const payload: EventPublishedEvent = {
    tenantId: r.tenantId,
    eventId: r.id,
    title: r.title,
    startsAt: r.startsAt?.toISOString() ?? null,
    websiteIds: r.websites.map((w) => w.websiteId).sort(),
  };
  return addOutboxEvent(tx, {
    tenantId: r.tenantId,
    subject: Subjects.events.eventPublished,
    payload,
  });
};

export const addDuplicated = (tx: Tx, tenantId: string, sourceEventId: string, eventId: string) => {
  const payload: EventDuplicatedEvent = { tenantId, sourceEventId, eventId };
  return addOutboxEvent(tx, { tenantId, subject: Subjects.events.eventDuplicated, payload });
};

/** events.events.deleted: one message per at most 1000 ids (one for E5 and for E6). */
export async function addDeleted(tx: Tx, tenantId: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += BATCH_MAX) {
    const payload: EventsDeletedEvent = { tenantId, eventIds: ids.slice(i, i + BATCH_MAX) };
    await addOutboxEvent(tx, { tenantId, subject: Subjects.events.eventsDeleted, payload });
  }
}
