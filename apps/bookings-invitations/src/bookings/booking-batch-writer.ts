import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppException } from '@crm/errors';
import {
  addOutboxEvents,
  BookingCreatedEvent,
  InvitationRespondedEvent,
  NewOutboxEvent,
  Subjects,
} from '@crm/messaging';
import { CapacityRepository, SoldOut } from '../capacity/capacity.repository';
import { Money } from '../common/money';
import { admitInOrder } from '../capacity/seat-admission';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { EventTicketsRepository, NewTicketRow } from '../event-tickets/event-tickets.repository';
import type { Prisma } from '../generated/prisma/client';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { InvoiceCounterRepository } from '../invoices/invoice-counter.repository';
import { MailsRepository } from '../mails/mails.repository';
import { TicketTypesRepository } from '../ticket-types/ticket-types.repository';
import { PUBLIC_ACTOR } from './booking-history';
import { BookingHistoryRepository } from './booking-history.repository';
import { BookingMails } from './booking-mails';
import { BookingWithTickets, toBooking } from './booking.mapper';
import { BookingRequest, checkBooking, PreparedBooking } from './booking-checks';
import { conflict, problem } from './booking-problems';
import { BookingsRepository, NewBookingRow, Tx } from './bookings.repository';
import type { Booking } from './dto/booking.output';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** What became of a booking of a batch. */
export type BookingOutcome =
  | { kind: 'written'; booking: Booking }
  /** Its Idempotency-Key was used first by another request: answer that one's booking. */
  | { kind: 'keyTaken' }
  /** The event copy is gone or deleted. */
  | { kind: 'eventGone' }
  | { kind: 'refused'; error: AppException };

interface Invitation {
  id: string;
  personId: string | null;
}

/**
 * Writes a batch of public bookings of ONE event in one transaction (see WriteBatches): the
 * bookings are decided in the order they came, as if one after the other, by steps that refuse a
 * booking with its own answer rather than an error that would take its neighbours down:
 *   1. claim the Idempotency-Keys (a key used first elsewhere: keyTaken);
 *   2. lock and check the invitations named;
 *   3. lock the quota and capacity counters once and admit the bookings in order;
 *   4. write the admitted bookings, tickets, history, outbox events and mails, multi-row;
 *   5. count their seats and draw their invoice numbers as one range (gap-free, in order).
 * Locks are always taken in the same order (keys sorted, invitations by id, ticket types by id,
 * the event, the invoice counter last), so batches of other replicas and the one-booking paths
 * (cancellations, repairs) wait for each other but never deadlock.
 */
@Injectable()
export class BookingBatchWriter {
  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly capacity: CapacityRepository,
    private readonly mails: BookingMails,
    private readonly types: TicketTypesRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly invitations: InvitationsRepository,
    private readonly tickets: EventTicketsRepository,
    private readonly history: BookingHistoryRepository,
    private readonly mailbox: MailsRepository,
    private readonly invoiceNumbers: InvoiceCounterRepository,
  ) {}

  write(requests: BookingRequest[]): Promise<BookingOutcome[]> {
    return this.repo.transaction(async (tx) => {
      const outcomes: BookingOutcome[] = new Array(requests.length);
      const prepared = await this.check(tx, requests, outcomes);
      const decided = prepared.length
        ? await this.decide(
            tx,
            prepared.map((p) => p.booking),
          )
        : [];
      prepared.forEach((p, k) => (outcomes[p.index] = decided[k]));
      return outcomes;
    });
  }

  /**
   * Step 0: the event copy and the ticket types of the whole batch read once; each booking
   * checked and priced on its own. The refused get their outcome; the others are returned.
   */
  private async check(
    tx: Tx,
    requests: BookingRequest[],
    outcomes: BookingOutcome[],
  ): Promise<{ index: number; booking: PreparedBooking }[]> {
    const { tenantId, eventId } = requests[0];
    const event = await this.copies.find(tenantId, eventId, tx);
    const ids = [
      ...new Set(requests.flatMap((r) => r.input.tickets.map((t) => t.ticketTypeId.toLowerCase()))),
    ];
    const types = event ? await this.types.findMany(tenantId, eventId, ids, tx) : [];
    const byId = new Map(types.map((t) => [t.id, t]));
    const prepared: { index: number; booking: PreparedBooking }[] = [];
    requests.forEach((request, index) => {
      const checked = checkBooking(request, event, byId);
      if (checked === 'eventGone') outcomes[index] = { kind: 'eventGone' };
      else if (checked instanceof AppException)
        outcomes[index] = { kind: 'refused', error: checked };
      else prepared.push({ index, booking: checked });
    });
    return prepared;
  }

  /** Steps 1-5 for the bookings that passed their checks, in order. */
  private async decide(tx: Tx, batch: PreparedBooking[]): Promise<BookingOutcome[]> {
    const outcomes: (BookingOutcome | undefined)[] = new Array(batch.length);
    const sameKeyAs = await this.claimKeys(tx, batch, outcomes);
    const invitations = await this.takeInvitations(tx, batch, outcomes);
    await this.admit(tx, batch, outcomes);
    const failed = batch.filter((_, i) => outcomes[i] && outcomes[i]!.kind !== 'keyTaken');
    await this.releaseKeys(tx, batch[0].tenantId, failed);

    const admitted = batch.filter((_, i) => !outcomes[i]);
    if (admitted.length) {
      const written = await this.writeAdmitted(tx, admitted, invitations);
      batch.forEach((b, i) => {
        if (!outcomes[i]) outcomes[i] = { kind: 'written', booking: written.get(b.bookingId)! };
      });
    }
    // A repeat of a key within the batch answers as its first request does.
    sameKeyAs.forEach((first, i) => {
      const o = outcomes[first]!;
      outcomes[i] =
        o.kind === 'written' || batch[i].requestHash !== batch[first].requestHash
          ? { kind: 'keyTaken' }
          : o;
    });
    return outcomes as BookingOutcome[];
  }

  /**
   * Inserts the keys (sorted: a fixed lock order) and marks the bookings whose key another
   * request holds. A key twice in the batch is claimed by its first booking; the map says, for
   * each repeat, which booking that is.
   */
  private async claimKeys(
    tx: Tx,
    batch: PreparedBooking[],
    outcomes: (BookingOutcome | undefined)[],
  ): Promise<Map<number, number>> {
    const first = new Map<string, number>();
    const sameKeyAs = new Map<number, number>();
    batch.forEach((b, i) => {
      if (!b.key) return;
      if (first.has(b.key)) sameKeyAs.set(i, first.get(b.key)!);
      else first.set(b.key, i);
    });
    for (const i of sameKeyAs.keys()) outcomes[i] = { kind: 'keyTaken' };
    if (!first.size) return sameKeyAs;
    const claims = [...first.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const claimed = await this.keys.claim(
      tx,
      batch[0].tenantId,
      claims.map(([key, i]) => ({
        key,
        requestHash: batch[i].requestHash,
        bookingId: batch[i].bookingId,
      })),
    );
    for (const [, i] of claims)
      if (!claimed.has(batch[i].bookingId)) outcomes[i] = { kind: 'keyTaken' };
    return sameKeyAs;
  }

  /** Keys of bookings refused after claiming them: a retry with the key must run afresh. */
  private async releaseKeys(tx: Tx, tenantId: string, refused: PreparedBooking[]) {
    const ids = refused.filter((b) => b.key).map((b) => b.bookingId);
    if (!ids.length) return;
    await this.keys.release(tx, tenantId, ids);
  }

  /**
   * Locks the invitations the open bookings name and checks each (only an invitation may name
   * the booker's person); one invitation books once, also within a batch.
   */
  private async takeInvitations(
    tx: Tx,
    batch: PreparedBooking[],
    outcomes: (BookingOutcome | undefined)[],
  ): Promise<Map<string, Invitation>> {
    const taken = new Map<string, Invitation>();
    const tokens = [
      ...new Set(
        batch.filter((b, i) => b.invitationToken && !outcomes[i]).map((b) => b.invitationToken!),
      ),
    ];
    if (!tokens.length) return taken;
    const { tenantId, event } = batch[0];
    const rows = await this.invitations.lockByTokens(tx, tenantId, event.eventId, tokens);
    const byToken = new Map(rows.map((r) => [r.token, r]));
    const used = new Set<string>();
    batch.forEach((b, i) => {
      if (!b.invitationToken || outcomes[i]) return;
      const inv = byToken.get(b.invitationToken);
      let error: AppException | null = null;
      if (!inv) error = AppException.validation([problem('invitationToken', 'unknownInvitation')]);
      else if (inv.status === 'rejected' || inv.status === 'withdrawn')
        error = conflict('invitationNotOpen', { status: inv.status }, [
          problem('invitationToken', 'invitationNotOpen', { status: inv.status }),
        ]);
      else if (inv.bookingId || used.has(inv.id))
        error = conflict('invitationUsed', {}, [problem('invitationToken', 'invitationUsed')]);
      if (error) {
        outcomes[i] = { kind: 'refused', error };
        return;
      }
      used.add(inv!.id);
      taken.set(b.bookingId, { id: inv!.id, personId: inv!.personId });
    });
    return taken;
  }

  /** Locks the counters once and admits the open bookings in order; refuses the others. */
  private async admit(tx: Tx, batch: PreparedBooking[], outcomes: (BookingOutcome | undefined)[]) {
    const open = batch.map((b, i) => ({ b, i })).filter(({ i }) => !outcomes[i]);
    if (!open.length) return;
    const { tenantId, event } = batch[0];
    const typeIds = open.flatMap(({ b }) => b.tickets.map((t) => t.type.id));
    const free = await this.capacity.lockFree(tx, tenantId, event.eventId, typeIds);
    if (!free) {
      for (const { i } of open) outcomes[i] = { kind: 'eventGone' };
      return;
    }
    const admissions = admitInOrder(
      open.map(({ b }) => b.tickets.map((t) => ({ ticketTypeId: t.type.id, count: 1 }))),
      free,
    );
    admissions.forEach((a, k) => {
      if (!a.admitted)
        outcomes[open[k].i] = { kind: 'refused', error: soldOutError(open[k].b, a.soldOut) };
    });
  }

  /** Steps 4 and 5 for the admitted bookings; their answers by booking id. */
  private async writeAdmitted(
    tx: Tx,
    admitted: PreparedBooking[],
    invitations: Map<string, Invitation>,
  ): Promise<Map<string, Booking>> {
    const { tenantId, event } = admitted[0];
    for (const b of admitted) {
      const inv = invitations.get(b.bookingId);
      if (!inv) continue;
      await this.invitations.acceptByBooking(tx, inv.id, b.bookingId);
    }
    const at = new Date();
    const rows = admitted.map((b) => bookingRow(b, invitations.get(b.bookingId)));
    await this.repo.insertMany(tx, rows, at);
    const tickets = admitted.flatMap((b) => ticketRows(b));
    await this.tickets.insertMany(tx, tickets);
    await this.history.add(
      tx,
      PUBLIC_ACTOR,
      ...admitted.map((b) => ({
        tenantId,
        eventId: event.eventId,
        bookingId: b.bookingId,
        action: 'created' as const,
        data: {
          tickets: b.tickets.length,
          totalGross: b.totals.gross,
          currency: b.currency,
          invitationId: invitations.get(b.bookingId)?.id ?? null,
        },
      })),
    );
    await addOutboxEvents(
      tx,
      admitted.flatMap((b) => outboxEvents(b, invitations.get(b.bookingId))),
    );
    await this.mailbox.enqueueMany(
      tx,
      admitted.map((b) => this.confirmation(b)),
    );

    await this.capacity.add(
      tx,
      tenantId,
      event.eventId,
      admitted.flatMap((b) => b.tickets.map((t) => ({ ticketTypeId: t.type.id, count: 1 }))),
    );
    const invoices = new Map<string, { invoiceNumber: string; invoiceDate: Date }>();
    for (const [year, ids] of groupBy(
      admitted.filter((b) => b.paid),
      (b) => b.invoiceYear,
    )) {
      const drawn = await this.invoiceNumbers.drawMany(
        tx,
        tenantId,
        year,
        ids.map((b) => b.bookingId),
      );
      for (const [id, inv] of drawn) invoices.set(id, inv);
    }

    const byId = new Map(rows.map((r) => [r.id, r]));
    const ticketsOf = groupBy(tickets, (t) => t.bookingId);
    return new Map(
      admitted.map((b) => {
        const row = byId.get(b.bookingId)!;
        const inv = invoices.get(b.bookingId);
        const withTickets = {
          ...storedBooking(row, at),
          invoiceNumber: inv?.invoiceNumber ?? null,
          invoiceDate: inv?.invoiceDate ?? null,
          tickets: (ticketsOf.get(b.bookingId) ?? []).map(ticketAsRow),
        } as BookingWithTickets;
        return [b.bookingId, toBooking(withTickets, 'public')];
      }),
    );
  }

  private confirmation(b: PreparedBooking) {
    return this.mails.confirmation(
      {
        tenantId: b.tenantId,
        bookingId: b.bookingId,
        language: b.language,
        bookerName: `${b.booker.firstname} ${b.booker.lastname}`,
        bookerEmail: b.booker.email,
        currency: b.currency,
      },
      b.event,
      b.tickets.map((t) => ({
        id: t.id,
        ticketTypeName: t.type.name,
        participant: `${t.participant.firstname} ${t.participant.lastname}`,
        priceGross: t.gross,
      })),
      b.totals,
      b.paid,
    );
  }
}

function soldOutError(b: PreparedBooking, soldOut: SoldOut): AppException {
  if (soldOut.kind === 'event')
    return conflict('capacityReached', {}, [problem('eventId', 'capacityReached')]);
  const t = b.tickets.find((x) => x.type.id === soldOut.ticketTypeId)!;
  return conflict('soldOut', { name: t.type.name }, [
    problem(`tickets[${t.index}].ticketTypeId`, 'soldOut', { name: t.type.name }),
  ]);
}

function bookingRow(b: PreparedBooking, invitation?: Invitation): NewBookingRow {
  return {
    id: b.bookingId,
    tenantId: b.tenantId,
    eventId: b.event.eventId,
    // nothing to pay: settled from the start
    paymentStatus: b.paid ? 'open' : 'paid',
    bookerFirstname: b.booker.firstname,
    bookerLastname: b.booker.lastname,
    bookerEmail: b.booker.email,
    bookerPersonId: invitation?.personId ?? null,
    language: b.language,
    answers: b.answers,
    invitationId: invitation?.id ?? null,
    websiteId: b.websiteId,
    currency: b.currency,
    totalNet: b.totals.net,
    totalTax: b.totals.tax,
    totalGross: b.totals.gross,
    cancellationTiers: b.event.cancellationTiers ?? null,
    confirmationToken: randomBytes(16).toString('base64url'),
  };
}

/** The row as it is stored (what a read would give), for the answer. */
function storedBooking(r: NewBookingRow, at: Date): Omit<BookingWithTickets, 'tickets'> {
  return {
    ...r,
    status: 'confirmed',
    answers: (r.answers ?? null) as Prisma.JsonValue,
    cancellationTiers: (r.cancellationTiers ?? null) as Prisma.JsonValue,
    bookerInformation: null,
    totalNet: new Money(r.totalNet),
    totalTax: new Money(r.totalTax),
    totalGross: new Money(r.totalGross),
    cancelledAt: null,
    cancellationFee: null,
    refundAmount: null,
    invoiceNumber: null,
    invoiceDate: null,
    dateCreated: at,
    dateModified: at,
    createdBy: 'public',
    createdByUserId: null,
    modifiedBy: 'public',
    modifiedByUserId: null,
  } as unknown as Omit<BookingWithTickets, 'tickets'>;
}

function ticketRows(b: PreparedBooking): NewTicketRow[] {
  return b.tickets.map((t, i) => ({
    id: t.id,
    tenantId: b.tenantId,
    eventId: b.event.eventId,
    bookingId: b.bookingId,
    ticketTypeId: t.type.id,
    ticketTypeName: t.type.name,
    priceGross: t.gross,
    priceNet: t.net,
    priceTax: t.tax,
    taxRatePercent: t.ratePercent,
    taxRateId: t.taxRateId,
    participantFirstname: t.participant.firstname,
    participantLastname: t.participant.lastname,
    participantEmail: t.participant.email,
    // keeps the tickets in the booking's order
    dateCreated: new Date(b.now.getTime() + i),
    dateModified: b.now,
  }));
}

/** A written ticket as the mapper reads rows (no read back: the batch knows what it wrote). */
function ticketAsRow(t: NewTicketRow) {
  return {
    ...t,
    status: 'valid',
    priceGross: new Money(t.priceGross),
    priceNet: new Money(t.priceNet),
    priceTax: new Money(t.priceTax),
    taxRatePercent: new Money(t.taxRatePercent),
    participantInformation: null,
    integrationData: null,
    revokedAt: null,
  };
}

function outboxEvents(b: PreparedBooking, invitation?: Invitation): NewOutboxEvent[] {
  const activity = {
    tenantId: b.tenantId,
    eventId: b.event.eventId,
    eventTitle: b.event.title,
    personId: invitation?.personId ?? null,
    language: b.language,
    at: b.now.toISOString(),
  };
  const created: BookingCreatedEvent = {
    ...activity,
    bookingId: b.bookingId,
    tickets: b.tickets.length,
    totalGross: b.totals.gross,
    currency: b.currency,
    invitationId: invitation?.id ?? null,
  };
  const events: NewOutboxEvent[] = [
    {
      tenantId: b.tenantId,
      subject: Subjects.bookingsInvitations.bookingCreated,
      payload: created,
    },
  ];
  if (invitation) {
    const accepted: InvitationRespondedEvent = { ...activity, invitationId: invitation.id };
    events.push({
      tenantId: b.tenantId,
      subject: Subjects.bookingsInvitations.invitationAccepted,
      payload: accepted,
    });
  }
  return events;
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
