import { Injectable, Logger } from '@nestjs/common';
import {
  ConsumeEvent,
  EventContext,
  EventsDeletedEvent,
  PeopleDeletedEvent,
  PeopleMergedEvent,
  Subjects,
  WebsiteMigratedEvent,
} from '@crm/messaging';
import { BookingCancellation } from '../bookings/booking-cancellation';
import { SYSTEM_ACTOR } from '../bookings/booking-history';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { BookingsRepository } from '../bookings/bookings.repository';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { MailsRepository } from '../mails/mails.repository';
import { BookingHistoryRepository } from '../bookings/booking-history.repository';
import { TicketTypesRepository } from '../ticket-types/ticket-types.repository';
import { TombstonesRepository } from './tombstones.repository';
import type { Tx } from '../database/tx';

const NOT_SENT_EVENT_DELETED = 'Not sent: the invitation was withdrawn (the event was deleted)';
const NOT_SENT_PERSON_DELETED = 'Not sent: the invitation was withdrawn (the person was deleted)';

const lower = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/**
 * Other services' events that change several domains of this service (bookings, invitations,
 * tickets, ticket types, the event copies). Each runs in the transaction that records the event
 * in ProcessedEvent (applied once), and changes only rows that still need it, so the same fact
 * sent again under a new id changes nothing either.
 *
 * people.deleted and people.merged first lock and tombstone the people gone (@crm/persistence
 * foreign-references.ts): a booking or invitation write that confirmed one of them over NATS
 * either commits before (and is cleared or moved here) or finds the tombstone and is refused as
 * for an unknown person. One event per transaction: in a batch, rows an earlier event changed
 * would be held while waiting for the lock of a later one, which a write holding that lock may
 * be waiting for (a deadlock).
 */
@Injectable()
export class CrossServiceEvents {
  private readonly logger = new Logger(CrossServiceEvents.name);

  constructor(
    private readonly bookingRows: BookingsRepository,
    private readonly invitations: InvitationsRepository,
    private readonly mails: MailsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly bookings: BookingCancellation,
    private readonly history: BookingHistoryRepository,
    private readonly types: TicketTypesRepository,
    private readonly tombstones: TombstonesRepository,
  ) {}

  /**
   * E5, E6: the copies are marked deleted (a late snapshot cannot revive them), every confirmed
   * booking is cancelled without a fee (tickets revoked, seats freed, bookings.cancelled and the
   * booker's mail through the outboxes), invitations are withdrawn (their queued mails not sent)
   * and the ticket types go.
   * The copies are marked first: a booking in flight commits before (it holds the capacity row)
   * and is cancelled here; one after it finds the event gone.
   */
  @ConsumeEvent(Subjects.events.eventsDeleted, EventsDeletedEvent)
  async onEventsDeleted(event: EventsDeletedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const { tenantId } = event;
    const ids = lower(event.eventIds);
    await this.types.lockOfEvents(tx, tenantId, ids);
    await this.copies.markDeleted(tx, tenantId, ids);
    const bookingIds = await this.bookingRows.confirmedOfEvents(tx, tenantId, ids);
    for (const bookingId of bookingIds) {
      await this.bookings.cancel(tx, tenantId, bookingId, {
        reason: 'event-deleted',
        actor: SYSTEM_ACTOR,
        fee: 'none',
      });
    }
    const withdrawn = await this.invitations.withdrawOfEvents(tx, tenantId, ids);
    await this.mails.dropInvitationMails(tx, tenantId, withdrawn, NOT_SENT_EVENT_DELETED);
    await this.types.deleteOfEvents(tx, tenantId, ids);
    this.logger.log(
      `${ids.length} event(s) deleted: ${bookingIds.length} booking(s) cancelled, ` +
        `${withdrawn.length} invitation(s) withdrawn`,
    );
  }

  /** W11: the copies, bookings and invitations of the events follow to the target website. */
  @ConsumeEvent(Subjects.events.websiteMigrated, WebsiteMigratedEvent)
  async onWebsiteMigrated(event: WebsiteMigratedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const ids = lower(event.eventIds);
    const from = event.websiteId.toLowerCase();
    const to = event.targetWebsiteId.toLowerCase();
    await this.copies.migrateWebsite(tx, event.tenantId, ids, from, to);
    await this.bookingRows.migrateWebsite(tx, event.tenantId, ids, from, to);
    await this.invitations.migrateWebsite(tx, event.tenantId, ids, from, to);
  }

  /**
   * P20: bookings and invitations of the merged people name the target (history person-merged).
   * The people gone are locked and tombstoned first (one event per transaction, see the class):
   * a write that confirmed a source over NATS either commits before and is moved here, or finds
   * the tombstone and is refused as for an unknown person (not redirected: crm-people's check
   * refuses a source after the merge too). The target is locked with them: if its deletion was
   * applied first (the two subjects are consumed apart), the sources' rows lose the person as on
   * people.deleted instead.
   */
  @ConsumeEvent(Subjects.crmPeople.peopleMerged, PeopleMergedEvent, { maxBatch: 1 })
  async onPeopleMerged(event: PeopleMergedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const target = event.targetId.toLowerCase();
    const sources = lower(event.sourceIds).filter((id) => id !== target);
    if (!sources.length) return;
    await this.tombstones.buryPeople(tx, event.tenantId, sources, target);
    if ((await this.tombstones.deletedPeople(tx, event.tenantId, [target])).size) {
      await this.forget(tx, event.tenantId, sources);
      return;
    }
    const bookings = await this.bookingRows.repointPeople(tx, event.tenantId, sources, target);
    await this.invitations.repointPeople(tx, event.tenantId, sources, target);
    // a public booking through one of those invitations committed while this waited for it
    bookings.push(...(await this.bookingRows.repointPeople(tx, event.tenantId, sources, target)));
    await this.history.add(
      tx,
      SYSTEM_ACTOR,
      ...bookings.map((b) => ({
        tenantId: event.tenantId,
        eventId: b.eventId,
        bookingId: b.id,
        action: 'person-merged' as const,
        data: { fromPersonId: b.personId, toPersonId: target },
      })),
    );
  }

  /**
   * P6, P10: invitations of the people are withdrawn without the person (their queued mails not
   * sent); bookings lose the person and keep the booker's name and e-mail (history
   * person-deleted).
   */
  @ConsumeEvent(Subjects.crmPeople.peopleDeleted, PeopleDeletedEvent, { maxBatch: 1 })
  async onPeopleDeleted(event: PeopleDeletedEvent, { tx }: EventContext<Tx>): Promise<void> {
    const personIds = lower(event.personIds);
    await this.tombstones.buryPeople(tx, event.tenantId, personIds);
    await this.forget(tx, event.tenantId, personIds);
  }

  /**
   * The people's bookings lose the person, their invitations are withdrawn without it. Bookings
   * twice: a public booking takes its person from its invitation (locked, not asked of
   * crm-people), so one that holds an invitation of theirs commits before the invitations'
   * update here can go on, and only a statement after it sees that booking.
   */
  private async forget(tx: Tx, tenantId: string, personIds: string[]): Promise<void> {
    const bookings = await this.bookingRows.forgetPeople(tx, tenantId, personIds);
    const invitations = await this.invitations.forgetPeople(tx, tenantId, personIds);
    bookings.push(...(await this.bookingRows.forgetPeople(tx, tenantId, personIds)));
    await this.mails.dropInvitationMails(tx, tenantId, invitations, NOT_SENT_PERSON_DELETED);
    await this.history.add(
      tx,
      SYSTEM_ACTOR,
      ...bookings.map((b) => ({
        tenantId,
        eventId: b.eventId,
        bookingId: b.id,
        action: 'person-deleted' as const,
        data: { personId: b.personId },
      })),
    );
  }
}
