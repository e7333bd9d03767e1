import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppException } from '@crm/errors';
import { SUPPORTED_LANGUAGES } from '@crm/i18n';
import {
  addOutboxEvents,
  BookingCreatedEvent,
  InvitationRespondedEvent,
  NewOutboxEvent,
  Subjects,
} from '@crm/messaging';
import { CapacityRepository, SeatRequest, SoldOut } from '../capacity/capacity.repository';
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
import { BookingRequest, checkBooking, PreparedBooking, ticketLines } from './booking-checks';
import { conflict, problem } from './booking-problems';
import { BookingsRepository, NewBookingRow } from './bookings.repository';
import type { Booking } from './dto/booking.output';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { checkHold, HoldRequest, PreparedHold } from '../holds/hold-checks';
import { HoldsRepository, LockedHold } from '../holds/holds.repository';
import { toSeatHold } from '../holds/hold.mapper';
import type { SeatHold } from '../holds/dto/hold.output';
import { ListAllocations } from '../waiting-list/list-allocations';
import { WaitingListRepository } from '../waiting-list/waiting-list.repository';
import type { Tx } from '../database/tx';

/** What a tenant's writer is asked for: a booking (BK1) or a hold of seats (BK18). */
export type SaleRequest = BookingRequest | HoldRequest;

/** What became of a hold of a batch. */
export type HoldOutcome =
  | { kind: 'held'; hold: SeatHold }
  | { kind: 'eventGone' }
  | { kind: 'refused'; error: AppException };

export type SaleOutcome = BookingOutcome | HoldOutcome;

/** A request of a batch that passed its own checks. */
type Sale = { kind: 'booking'; b: PreparedBooking } | { kind: 'hold'; h: PreparedHold };

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
 * Writes a batch of public bookings and holds of ONE tenant, of one or more of its events, in one
 * transaction (see WriteBatches, TenantSales): they are decided in the order they came, as if one
 * after the other, by steps that refuse a request with its own answer rather than an error that
 * would take its neighbours down:
 *   1. claim the bookings' Idempotency-Keys (a key used first elsewhere: keyTaken);
 *   1b. lock the buyers of events with a limit per buyer and refuse what would exceed it;
 *   2. lock and check the invitations named;
 *   3. lock and check the holds named (a booking with a hold takes its seats, needing no more);
 *   4. lock each event's quota and capacity counters once and admit the other bookings and the
 *      new holds in order, against the seats the event's waiting list cannot use;
 *   5. write the admitted bookings, tickets, history, outbox events and mails, and the new
 *      holds, multi-row; move the seats between the counters; draw the invoice numbers as one
 *      range (gap-free, in order).
 * One writer per tenant means the events of a tenant share batches instead of waiting for each
 * other's locks of the tenant's invoice counter. Locks are always taken in the same order (keys
 * sorted; then per step events by id: invitations by id, holds by id, ticket types by id and the
 * event; the invoice counter last), so batches of other replicas, the one-step paths
 * (cancellations, releases, repairs) and the holds sweeper wait for each other but never
 * deadlock.
 */
@Injectable()
export class BookingBatchWriter {
  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly capacity: CapacityRepository,
    private readonly holds: HoldsRepository,
    private readonly mails: BookingMails,
    private readonly types: TicketTypesRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly invitations: InvitationsRepository,
    private readonly tickets: EventTicketsRepository,
    private readonly history: BookingHistoryRepository,
    private readonly mailbox: MailsRepository,
    private readonly invoiceNumbers: InvoiceCounterRepository,
    private readonly lists: ListAllocations,
    private readonly waitingList: WaitingListRepository,
  ) {}

  write(requests: SaleRequest[]): Promise<SaleOutcome[]> {
    return this.repo.transaction(async (tx) => {
      const outcomes: SaleOutcome[] = new Array(requests.length);
      const prepared: { index: number; sale: Sale }[] = [];
      for (const [eventId, indexes] of byEvent(requests, (r) => r.eventId))
        prepared.push(...(await this.check(tx, eventId, indexes, requests, outcomes)));
      prepared.sort((a, b) => a.index - b.index);
      const decided = prepared.length
        ? await this.decide(
            tx,
            prepared.map((p) => p.sale),
          )
        : [];
      prepared.forEach((p, k) => (outcomes[p.index] = decided[k]));
      return outcomes;
    });
  }

  /**
   * Step 0 for the requests of one event (`indexes` into `all`): the event copy and the ticket
   * types read once (and the holds its bookings name, unlocked); each request checked and priced
   * on its own. The refused get their outcome; the others are returned.
   */
  private async check(
    tx: Tx,
    eventId: string,
    indexes: number[],
    all: SaleRequest[],
    outcomes: SaleOutcome[],
  ): Promise<{ index: number; sale: Sale }[]> {
    const requests = indexes.map((i) => all[i]);
    const { tenantId } = requests[0];
    const event = await this.copies.find(tenantId, eventId, tx);
    const ids = [
      ...new Set(requests.flatMap((r) => r.input.tickets.map((t) => t.ticketTypeId.toLowerCase()))),
    ];
    const types = event ? await this.types.findMany(tenantId, eventId, ids, tx) : [];
    const byId = new Map(types.map((t) => [t.id, t]));
    const heldTypes = await this.heldTypes(tx, tenantId, eventId, requests);
    const prepared: { index: number; sale: Sale }[] = [];
    requests.forEach((request, k) => {
      const index = indexes[k];
      const checked =
        request.kind === 'hold'
          ? checkHold(request, event, byId)
          : checkBooking(request, event, byId, heldTypes.get(request.input.holdToken ?? ''));
      if (checked === 'eventGone') outcomes[index] = { kind: 'eventGone' };
      else if (checked instanceof AppException)
        outcomes[index] = { kind: 'refused', error: checked };
      else if (request.kind === 'hold')
        prepared.push({ index, sale: { kind: 'hold', h: checked as PreparedHold } });
      else prepared.push({ index, sale: { kind: 'booking', b: checked as PreparedBooking } });
    });
    return prepared;
  }

  /** The ticket types each active hold named by a booking holds (their sale window is kept). */
  private async heldTypes(
    tx: Tx,
    tenantId: string,
    eventId: string,
    requests: SaleRequest[],
  ): Promise<Map<string, Set<string>>> {
    const tokens = requests.flatMap((r) =>
      r.kind === 'booking' && r.input.holdToken ? [r.input.holdToken] : [],
    );
    const rows = await this.holds.peek(tx, tenantId, eventId, tokens);
    return new Map(
      rows
        .filter((h) => h.status === 'active')
        .map((h) => [h.token, new Set(h.seats.map((s) => s.ticketTypeId))]),
    );
  }

  /** Steps 1-5 for the requests that passed their checks, in order. */
  private async decide(tx: Tx, sales: Sale[]): Promise<SaleOutcome[]> {
    const outcomes: (SaleOutcome | undefined)[] = new Array(sales.length);
    const bookingAt = sales.flatMap((s, i) => (s.kind === 'booking' ? [i] : []));
    const batch = bookingAt.map((i) => (sales[i] as { b: PreparedBooking }).b);
    const bookingOutcomes: (BookingOutcome | undefined)[] = new Array(batch.length);
    const sameKeyAs = await this.claimKeys(tx, batch, bookingOutcomes);
    await this.limitPerBuyer(tx, batch, bookingOutcomes);
    const invitations = await this.takeInvitations(tx, batch, bookingOutcomes);
    const holdsTaken = await this.takeHolds(tx, batch, bookingOutcomes);
    bookingAt.forEach((i, k) => (outcomes[i] = bookingOutcomes[k]));
    await this.admit(tx, sales, outcomes, holdsTaken);
    bookingAt.forEach((i, k) => (bookingOutcomes[k] = outcomes[i] as BookingOutcome | undefined));
    const failed = batch.filter(
      (_, k) => bookingOutcomes[k] && bookingOutcomes[k]!.kind !== 'keyTaken',
    );
    const { tenantId } = saleEvent(sales[0]);
    await this.releaseKeys(tx, tenantId, failed);

    const admitted = batch.filter((_, k) => !bookingOutcomes[k]);
    const newHolds = sales.flatMap((s, i) => (s.kind === 'hold' && !outcomes[i] ? [s.h] : []));
    const taken = admitted.flatMap((b) => {
      const hold = holdsTaken.get(b.bookingId);
      return hold ? [{ b, hold }] : [];
    });
    const written = admitted.length ? await this.writeBookings(tx, admitted, invitations) : null;
    const expiries = await this.writeHolds(tx, newHolds);
    await this.holds.confirm(
      tx,
      taken.map(({ b, hold }) => ({ holdId: hold.id, bookingId: b.bookingId })),
    );
    await this.moveSeats(tx, tenantId, admitted, newHolds, taken);
    if (written) {
      const invoices = await this.drawInvoices(tx, admitted);
      const answers = this.answers(admitted, written, invoices);
      bookingAt.forEach((i, k) => {
        if (!bookingOutcomes[k])
          outcomes[i] = { kind: 'written', booking: answers.get(batch[k].bookingId)! };
      });
    }
    sales.forEach((s, i) => {
      if (s.kind === 'hold' && !outcomes[i])
        outcomes[i] = {
          kind: 'held',
          hold: toSeatHold({
            ...s.h,
            eventId: s.h.event.eventId,
            status: 'active',
            expiresAt: expiries.get(s.h.holdId)!,
            bookingId: null,
          }),
        };
    });
    // A repeat of a key within the batch answers as its first request does.
    sameKeyAs.forEach((first, k) => {
      const o = outcomes[bookingAt[first]]!;
      outcomes[bookingAt[k]] =
        o.kind === 'written' || batch[k].requestHash !== batch[first].requestHash
          ? { kind: 'keyTaken' }
          : o;
    });
    return outcomes as SaleOutcome[];
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

  /**
   * The event's maxTicketsPerBuyer: locks each buyer of the batch (event and booker e-mail in any
   * case, sorted: a fixed lock order) and refuses, in arrival order, a booking that would take
   * the e-mail's tickets of the event over the limit, counting the valid tickets of its earlier
   * bookings, the seats offered to it by open waiting-list holds (but the hold a booking takes:
   * those seats become its tickets) and the bookings of this batch before it. Under the lock two
   * writers (replicas) cannot both let the same buyer past it.
   */
  private async limitPerBuyer(
    tx: Tx,
    batch: PreparedBooking[],
    outcomes: (BookingOutcome | undefined)[],
  ): Promise<void> {
    const limited = batch.flatMap((b, i) =>
      !outcomes[i] && b.event.maxTicketsPerBuyer ? [{ b, i }] : [],
    );
    if (!limited.length) return;
    const buyerOf = (b: PreparedBooking) =>
      `${b.event.eventId}/${b.booker.email.trim().toLowerCase()}`;
    const buyers = [...new Set(limited.map(({ b }) => buyerOf(b)))].sort();
    const tenantId = limited[0].b.tenantId;
    const booked = await this.repo.lockBuyers(tx, tenantId, buyers);
    const taking = limited.flatMap(({ b }) => (b.holdToken ? [b.holdToken] : []));
    const offered = await this.waitingList.offeredTo(tx, tenantId, buyers, taking);
    for (const [buyer, n] of offered) booked.set(buyer, (booked.get(buyer) ?? 0) + n);
    for (const { b, i } of limited) {
      const buyer = buyerOf(b);
      const max = b.event.maxTicketsPerBuyer!;
      const n = booked.get(buyer) ?? 0;
      if (n + b.tickets.length > max) {
        outcomes[i] = {
          kind: 'refused',
          error: conflict('maxTicketsPerBuyer', { max }, [
            problem('booker.email', 'maxTicketsPerBuyer', { max, booked: n }),
          ]),
        };
      } else booked.set(buyer, n + b.tickets.length);
    }
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
    const open = batch.filter((b, i) => b.invitationToken && !outcomes[i]);
    if (!open.length) return taken;
    const byToken = new Map<
      string,
      Awaited<ReturnType<InvitationsRepository['lockByTokens']>>[0]
    >();
    for (const [eventId, indexes] of byEvent(open, (b) => b.event.eventId)) {
      const tokens = [...new Set(indexes.map((i) => open[i].invitationToken!))];
      const rows = await this.invitations.lockByTokens(tx, open[0].tenantId, eventId, tokens);
      for (const r of rows) byToken.set(`${eventId}/${r.token}`, r);
    }
    const used = new Set<string>();
    batch.forEach((b, i) => {
      if (!b.invitationToken || outcomes[i]) return;
      const inv = byToken.get(`${b.event.eventId}/${b.invitationToken}`);
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
      // The invitee's language wins over the visitor's Accept-Language: the organiser chose it
      // (and wrote the invitation in it), so the booking, its mails and touchpoints follow it.
      if ((SUPPORTED_LANGUAGES as readonly string[]).includes(inv!.language)) {
        b.language = inv!.language;
      }
    });
    return taken;
  }

  /**
   * Locks the holds the open bookings name and checks each: the event's, active, not expired by
   * the database's clock, holding at least the tickets booked per type. One hold books once,
   * also within a batch. The holds taken by booking id.
   */
  private async takeHolds(
    tx: Tx,
    batch: PreparedBooking[],
    outcomes: (BookingOutcome | undefined)[],
  ): Promise<Map<string, LockedHold>> {
    const taken = new Map<string, LockedHold>();
    const open = batch.filter((b, i) => b.holdToken && !outcomes[i]);
    if (!open.length) return taken;
    const byToken = new Map<string, LockedHold>();
    for (const [eventId, indexes] of byEvent(open, (b) => b.event.eventId)) {
      const tokens = indexes.map((i) => open[i].holdToken!);
      const rows = await this.holds.lock(tx, open[0].tenantId, eventId, tokens);
      for (const r of rows) byToken.set(`${eventId}/${r.token}`, r);
    }
    const used = new Set<string>();
    batch.forEach((b, i) => {
      if (!b.holdToken || outcomes[i]) return;
      const hold = byToken.get(`${b.event.eventId}/${b.holdToken}`);
      const error = holdProblem(b, hold, used);
      if (error) outcomes[i] = { kind: 'refused', error };
      else {
        used.add(hold!.id);
        taken.set(b.bookingId, hold!);
      }
    });
    return taken;
  }

  /**
   * Event by event (by id), locks the counters of every seat the batch moves once and admits, in
   * order, the open bookings without a hold and the new holds; refuses the others. A booking
   * with a hold needs no admission, but its hold's seats move too: their counters are locked here
   * as well, so that moveSeats takes no lock out of order.
   */
  private async admit(
    tx: Tx,
    sales: Sale[],
    outcomes: (SaleOutcome | undefined)[],
    holdsTaken: Map<string, LockedHold>,
  ): Promise<void> {
    const live = sales.flatMap((s, i) => (outcomes[i] ? [] : [{ s, i }]));
    for (const [eventId, indexes] of byEvent(live, ({ s }) => saleEvent(s).eventId)) {
      const group = indexes.map((k) => live[k]);
      const heldBy = ({ s }: { s: Sale }) =>
        s.kind === 'booking' ? holdsTaken.get(s.b.bookingId) : undefined;
      const open = group.filter((x) => !heldBy(x));
      const free = await this.capacity.lockFree(tx, saleEvent(group[0].s).tenantId, eventId, [
        ...open.flatMap(({ s }) => seatsOf(s).map((x) => x.ticketTypeId)),
        ...group.flatMap((x) => (heldBy(x)?.seats ?? []).map((x) => x.ticketTypeId)),
      ]);
      if (!free) {
        for (const { i } of group) outcomes[i] = { kind: 'eventGone' };
        continue;
      }
      // seats the waiting list can use are not the public's (the offer sweeper takes them)
      const forPublic = open.length
        ? (await this.lists.split(tx, saleEvent(group[0].s).tenantId, eventId, free)).publicFree
        : free;
      const admissions = admitInOrder(
        open.map(({ s }) => seatsOf(s)),
        forPublic,
      );
      admissions.forEach((a, k) => {
        if (a.admitted) return;
        const { s, i } = open[k];
        outcomes[i] = { kind: 'refused', error: soldOutError(s, a.soldOut) };
      });
    }
  }

  /**
   * Moves the seats of what the batch wrote between the counters, event by event, under admit's
   * locks: the bookings' seats to sold, the new holds' to held, the holds taken back from held.
   */
  private async moveSeats(
    tx: Tx,
    tenantId: string,
    admitted: PreparedBooking[],
    newHolds: PreparedHold[],
    taken: { b: PreparedBooking; hold: LockedHold }[],
  ): Promise<void> {
    type Move = { eventId: string; sold?: SeatRequest[]; held?: SeatRequest[] };
    const moves: Move[] = [
      ...admitted.map((b) => ({
        eventId: b.event.eventId,
        sold: b.tickets.map((t) => ({ ticketTypeId: t.type.id, count: 1 })),
      })),
      ...newHolds.map((h) => ({ eventId: h.event.eventId, held: h.seats })),
      ...taken.map(({ b, hold }) => ({
        eventId: b.event.eventId,
        held: hold.seats.map((s) => ({ ...s, count: -s.count })),
      })),
    ];
    for (const [eventId, indexes] of byEvent(moves, (m) => m.eventId)) {
      const group = indexes.map((i) => moves[i]);
      await this.capacity.shift(
        tx,
        tenantId,
        eventId,
        { sold: group.flatMap((m) => m.sold ?? []), held: group.flatMap((m) => m.held ?? []) },
        true,
      );
    }
  }

  /** The new holds, each expiring its event's hold time from now; their expiries by id. */
  private async writeHolds(tx: Tx, holds: PreparedHold[]): Promise<Map<string, Date>> {
    const now = Date.now();
    const expiries = new Map(
      holds.map((h) => [h.holdId, new Date(now + h.event.holdMinutes * 60_000)]),
    );
    await this.holds.insertMany(
      tx,
      holds.map((h) => ({
        id: h.holdId,
        tenantId: h.tenantId,
        eventId: h.event.eventId,
        token: h.token,
        seats: h.seats,
        expiresAt: expiries.get(h.holdId)!,
      })),
    );
    return expiries;
  }

  /** Step 5 for the admitted bookings: everything but the counters and the invoice numbers. */
  private async writeBookings(
    tx: Tx,
    admitted: PreparedBooking[],
    invitations: Map<string, Invitation>,
  ): Promise<WrittenBookings> {
    const { tenantId } = admitted[0];
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
        eventId: b.event.eventId,
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
    // each mail with its booking's request (the batch runs in the context of whichever came first)
    await this.mailbox.enqueueMany(
      tx,
      admitted.map((b) => ({ ...this.confirmation(b), headers: b.origin ?? {} })),
    );
    return { rows, tickets, at };
  }

  /** The paid bookings' invoice numbers, one range per year (the invoice counter is locked last). */
  private async drawInvoices(
    tx: Tx,
    admitted: PreparedBooking[],
  ): Promise<Map<string, { invoiceNumber: string; invoiceDate: Date }>> {
    const invoices = new Map<string, { invoiceNumber: string; invoiceDate: Date }>();
    for (const [year, ids] of groupBy(
      admitted.filter((b) => b.paid),
      (b) => b.invoiceYear,
    )) {
      const drawn = await this.invoiceNumbers.drawMany(
        tx,
        admitted[0].tenantId,
        year,
        ids.map((b) => b.bookingId),
      );
      for (const [id, inv] of drawn) invoices.set(id, inv);
    }
    return invoices;
  }

  /** The answers by booking id: what was written, without reading it back. */
  private answers(
    admitted: PreparedBooking[],
    { rows, tickets, at }: WrittenBookings,
    invoices: Map<string, { invoiceNumber: string; invoiceDate: Date }>,
  ): Map<string, Booking> {
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

interface WrittenBookings {
  rows: NewBookingRow[];
  tickets: NewTicketRow[];
  at: Date;
}

/** The tenant and event of a request of a batch. */
function saleEvent(s: Sale): { tenantId: string; eventId: string } {
  const { tenantId, event } = s.kind === 'hold' ? s.h : s.b;
  return { tenantId, eventId: event.eventId };
}

/** Why a booking cannot take the hold it names; null: it can. */
function holdProblem(
  b: PreparedBooking,
  hold: LockedHold | undefined,
  used: Set<string>,
): AppException | null {
  if (!hold) return AppException.validation([problem('holdToken', 'unknownHold')]);
  const status = used.has(hold.id) ? 'confirmed' : hold.status;
  if (status !== 'active')
    return conflict('holdNotActive', { status }, [
      problem('holdToken', 'holdNotActive', { status }),
    ]);
  if (!hold.live) return conflict('holdExpired', {}, [problem('holdToken', 'holdExpired')]);
  const held = new Map(hold.seats.map((s) => [s.ticketTypeId, s.count]));
  // per type, as the other per-type rules: the field is the type's first ticket
  for (const line of ticketLines(b.tickets.map((t) => ({ ticketTypeId: t.type.id, count: 1 })))) {
    const n = held.get(line.ticketTypeId) ?? 0;
    if (line.count > n) {
      const name = b.tickets[line.index].type.name;
      return AppException.validation([
        problem(`tickets[${line.index}].ticketTypeId`, 'notHeld', { name, held: n }),
      ]);
    }
  }
  return null;
}

/** The answer to a booking or hold refused for want of seats, naming what ran out. */
function soldOutError(s: Sale, soldOut: SoldOut): AppException {
  if (soldOut.kind === 'event')
    return conflict('capacityReached', {}, [problem('eventId', 'capacityReached')]);
  const { index, name } =
    s.kind === 'hold'
      ? s.h.fields.get(soldOut.ticketTypeId)!
      : s.b.tickets
          .filter((x) => x.type.id === soldOut.ticketTypeId)
          .map((t) => ({ index: t.index, name: t.type.name }))[0];
  return conflict('soldOut', { name }, [
    problem(`tickets[${index}].ticketTypeId`, 'soldOut', { name }),
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
    paymentDueAt: b.paid ? paymentDueAt(b.event, b.now) : null,
  };
}

/**
 * The event's payment deadline for a booking made `now`: its hours from now, but never after
 * the event starts (an unpaid seat is not held into the event); null: no deadline.
 */
export function paymentDueAt(
  event: { paymentDeadlineHours: number | null; startsAt: Date | null },
  now: Date,
): Date | null {
  if (!event.paymentDeadlineHours) return null;
  const due = now.getTime() + event.paymentDeadlineHours * 3600_000;
  return new Date(event.startsAt ? Math.min(due, event.startsAt.getTime()) : due);
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
    paymentRemindedAt: null,
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
  // the headers of the booking's own request, not of the one whose turn wrote the batch
  const headers = b.origin;
  const events: NewOutboxEvent[] = [
    {
      tenantId: b.tenantId,
      subject: Subjects.bookingsInvitations.bookingCreated,
      payload: created,
      headers,
    },
  ];
  if (invitation) {
    const accepted: InvitationRespondedEvent = { ...activity, invitationId: invitation.id };
    events.push({
      tenantId: b.tenantId,
      subject: Subjects.bookingsInvitations.invitationAccepted,
      payload: accepted,
      headers,
    });
  }
  return events;
}

/** The seats a sale needs admitted: a hold's, or a booking's one per ticket. */
function seatsOf(s: Sale): SeatRequest[] {
  return s.kind === 'hold'
    ? s.h.seats
    : s.b.tickets.map((t) => ({ ticketTypeId: t.type.id, count: 1 }));
}

/** The indexes of `items` by event, the events by id: the order their locks are taken in. */
function byEvent<T>(items: T[], eventOf: (item: T) => string): [string, number[]][] {
  const groups = groupBy(
    items.map((item, i) => ({ item, i })),
    ({ item }) => eventOf(item),
  );
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([eventId, group]) => [eventId, group.map(({ i }) => i)]);
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
