import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, isUuid, throwIfProblems } from '@crm/errors';
import { skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { CapacityRepository } from '../capacity/capacity.repository';
import { TicketCancellation } from '../capacity/ticket-cancellation';
import { Money, sumMoney } from '../common/money';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { EventTicketsRepository } from '../event-tickets/event-tickets.repository';
import { InvoiceCounterRepository } from '../invoices/invoice-counter.repository';
import { dayIn } from '../ticket-types/ticket-prices';
import { actorOf } from './booking-history';
import { BookingsRepository } from './bookings.repository';
import type { HistoryQuery, StatisticsQuery } from './dto/booking.input';
import type {
  BookingHistoryEntry,
  BookingStatistics,
  ConsistencyProblem,
  ConsistencyReport,
} from './dto/booking.output';
import { BookingHistoryRepository } from './booking-history.repository';
import type { Tx } from '../database/tx';

const validZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
};

/** BK13 statistics, BK14 history and BK15 consistency check of bookings. */
@Injectable()
export class BookingReports {
  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly tickets: TicketCancellation,
    private readonly i18n: I18nService,
    private readonly invoiceNumbers: InvoiceCounterRepository,
    private readonly capacity: CapacityRepository,
    private readonly bookingTickets: EventTicketsRepository,
    private readonly entries: BookingHistoryRepository,
  ) {}

  private async event(ctx: RequestContext, eventId: string) {
    const copy = isUuid(eventId)
      ? await this.copies.find(ctx.tenantId, eventId.toLowerCase())
      : null;
    if (!copy) {
      const resource = this.i18n.t('bookings.resource.event', { lang: ctx.language });
      throw AppException.notFound(resource as string, eventId);
    }
    return copy;
  }

  /**
   * BK13: per day in the event's zone, in one SQL aggregation: bookings made (with their tickets
   * and, unless cancelled since, their revenue) and bookings cancelled (on the cancellation day).
   */
  async statistics(
    ctx: RequestContext,
    eventId: string,
    query: StatisticsQuery,
  ): Promise<BookingStatistics> {
    const event = await this.event(ctx, eventId);
    const from = query.from?.slice(0, 10) ?? null;
    const to = query.to?.slice(0, 10) ?? null;
    if (from && to && to < from)
      throwIfProblems([
        { field: 'to', rule: 'dateRange', messageKey: 'bookings.problems.dateRange' },
      ]);
    const tz = validZone(event.timeZone);
    const rows = await this.repo.statistics(ctx.tenantId, event.eventId, tz, from, to);
    return {
      eventId: event.eventId,
      timeZone: tz,
      days: rows.map((r) => ({
        day: r.day,
        booked: r.booked,
        cancelled: r.cancelled,
        tickets: r.tickets,
        revenueNet: r.net,
        revenueGross: r.gross,
      })),
    };
  }

  /** BK14: newest first. */
  async history(
    ctx: RequestContext,
    eventId: string,
    query: HistoryQuery,
  ): Promise<Paged<BookingHistoryEntry>> {
    const event = await this.event(ctx, eventId);
    const where = {
      tenantId: ctx.tenantId,
      eventId: event.eventId,
      ...(query.bookingId ? { bookingId: query.bookingId.toLowerCase() } : {}),
      ...(query.action ? { action: query.action } : {}),
    };
    const [rows, total] = await this.entries.page(where, skipTake(query));
    return paged(
      rows.map((r) => ({
        id: r.id,
        bookingId: r.bookingId,
        eventId: r.eventId,
        action: r.action,
        actor: r.actor,
        actorUserId: r.actorUserId,
        data:
          typeof r.data === 'object' && r.data !== null && !Array.isArray(r.data)
            ? (r.data as Record<string, unknown>)
            : null,
        at: r.at.toISOString(),
      })),
      total,
    );
  }

  /**
   * BK15: the booking against its tickets, its invoice number against its total, and the
   * capacity counters of its ticket types and event against the valid tickets. With `repair`,
   * everything runs in one transaction and the counters are recounted under their row locks
   * (taken in the bookings' lock order: ticket types by id, then the event).
   */
  async consistency(ctx: RequestContext, id: string, repair: boolean): Promise<ConsistencyReport> {
    if (!isUuid(id)) throw this.notFound(ctx, id);
    const bookingId = id.toLowerCase();
    const run = async (tx: Tx): Promise<ConsistencyReport> => {
      const booking = repair
        ? await this.repo.lock(tx, ctx.tenantId, bookingId)
        : await this.repo.find(ctx.tenantId, bookingId, tx);
      if (!booking) throw this.notFound(ctx, id);
      const problems: ConsistencyProblem[] = [];
      const repaired: ConsistencyProblem[] = [];
      const tickets = booking.tickets;

      // each ticket: net + tax = gross (the gross is what was paid: the tax is recomputed)
      const taxFixes: { id: string; tax: string }[] = [];
      const taxOf = new Map<string, string>();
      for (const t of tickets) {
        const expected = new Money(t.priceGross.toString()).minus(t.priceNet.toString()).toFixed(2);
        taxOf.set(t.id, expected);
        if (t.priceTax.toFixed(2) !== expected) {
          problems.push({
            field: `tickets.${t.id}.priceTax`,
            expected,
            actual: t.priceTax.toFixed(2),
          });
          taxFixes.push({ id: t.id, tax: expected });
        }
      }
      // totals = the sums of the tickets' frozen prices (with the taxes as repaired above)
      const sum = (f: (t: (typeof tickets)[number]) => string) => sumMoney(tickets, f);
      const totals = {
        totalNet: sum((t) => t.priceNet.toString()),
        totalTax: sum((t) => taxOf.get(t.id)!),
        totalGross: sum((t) => t.priceGross.toString()),
      };
      const totalFixes: Record<string, string> = {};
      for (const field of ['totalNet', 'totalTax', 'totalGross'] as const) {
        const actual = booking[field].toFixed(2);
        if (actual !== totals[field]) {
          problems.push({ field, expected: totals[field], actual });
          totalFixes[field] = totals[field];
        }
      }
      // status vs tickets: a cancelled booking has no valid ticket; a confirmed one has one
      const valid = tickets.filter((t) => t.status === 'valid');
      let cancelValid = false;
      let markCancelled = false;
      if (booking.status === 'cancelled' && valid.length) {
        problems.push({ field: 'tickets.valid', expected: '0', actual: String(valid.length) });
        cancelValid = true;
      }
      if (booking.status === 'confirmed' && tickets.length && !valid.length) {
        problems.push({ field: 'status', expected: 'cancelled', actual: 'confirmed' });
        markCancelled = true;
      }
      // invoice number iff gross > 0 (an external booking's number, set by BK11, stays)
      const gross = new Money(booking.totalGross.toString());
      let assignInvoice = false;
      if (gross.gt(0) && !booking.invoiceNumber) {
        problems.push({ field: 'invoiceNumber', expected: 'present', actual: 'null' });
        assignInvoice = true;
      }
      if (gross.lte(0) && booking.invoiceNumber) {
        const external = await this.entries.count(
          ctx.tenantId,
          booking.id,
          'invoice-number-set',
          tx,
        );
        if (!external) {
          problems.push({
            field: 'invoiceNumber',
            expected: 'null',
            actual: booking.invoiceNumber,
          });
        }
      }

      if (repair) {
        if (Object.keys(totalFixes).length) {
          await this.repo.update(tx, booking.id, totalFixes);
        }
        for (const f of taxFixes) {
          await this.bookingTickets.setPriceTax(tx, f.id, f.tax);
        }
        if (cancelValid)
          await this.tickets.cancel(
            tx,
            ctx.tenantId,
            valid.map((t) => t.id),
          );
        if (markCancelled) {
          await this.repo.update(tx, booking.id, {
            status: 'cancelled',
            cancelledAt: booking.cancelledAt ?? new Date(),
          });
        }
        repaired.push(
          ...problems.filter((p) => !p.field.startsWith('invoiceNumber') || assignInvoice),
        );
      }

      // the capacity counters against the valid tickets (after the repairs above)
      const counters = await this.counters(
        tx,
        ctx.tenantId,
        booking.eventId,
        [...new Set(tickets.map((t) => t.ticketTypeId))].sort(),
        repair,
      );
      problems.push(...counters);
      if (repair) repaired.push(...counters);
      // the invoice counter last, as a booking takes it (after the capacity counters)
      if (repair && assignInvoice) {
        const event = await this.copies.find(ctx.tenantId, booking.eventId, tx);
        const year = Number(dayIn(booking.dateCreated, event?.timeZone ?? 'UTC').slice(0, 4));
        await this.invoiceNumbers.draw(tx, ctx.tenantId, year, booking.id);
      }
      if (repair && repaired.length) {
        await this.entries.add(tx, actorOf(ctx), {
          tenantId: ctx.tenantId,
          eventId: booking.eventId,
          bookingId: booking.id,
          action: 'repaired',
          data: { repaired: repaired as unknown as Record<string, unknown>[] },
        });
      }
      return { bookingId: booking.id, consistent: problems.length === 0, problems, repaired };
    };
    return repair ? this.repo.transaction(run) : this.repo.withoutTransaction(run);
  }

  /** The counters that do not match the valid tickets; repaired (under the row locks) when asked. */
  private async counters(
    tx: Tx,
    tenantId: string,
    eventId: string,
    typeIds: string[],
    repair: boolean,
  ): Promise<ConsistencyProblem[]> {
    const problems: ConsistencyProblem[] = [];
    // lock first, count after: a booking that took seats before is committed and counted, one
    // that takes after waits for this transaction
    if (repair) await this.capacity.lockCounters(tx, tenantId, eventId, typeIds);
    const { types, event: ev } = await this.capacity.soldAndValid(tx, tenantId, eventId, typeIds);
    for (const t of types) {
      if (t.sold !== t.valid) {
        problems.push({
          field: `ticketTypes.${t.id}.sold`,
          expected: String(t.valid),
          actual: String(t.sold),
        });
        if (repair) await this.capacity.setTypeSold(tx, t.id, t.valid);
      }
    }
    if (ev && ev.sold !== ev.valid) {
      problems.push({ field: 'event.sold', expected: String(ev.valid), actual: String(ev.sold) });
      if (repair) await this.capacity.setEventSold(tx, tenantId, eventId, ev.valid);
    }
    // held: the seats of the active holds (holds/)
    for (const t of types) {
      if (t.held !== t.holding) {
        problems.push({
          field: `ticketTypes.${t.id}.held`,
          expected: String(t.holding),
          actual: String(t.held),
        });
        if (repair) await this.capacity.setTypeHeld(tx, t.id, t.holding);
      }
    }
    if (ev && ev.held !== ev.holding) {
      problems.push({ field: 'event.held', expected: String(ev.holding), actual: String(ev.held) });
      if (repair) await this.capacity.setEventHeld(tx, tenantId, eventId, ev.holding);
    }
    return problems;
  }

  private notFound(ctx: RequestContext, id: string) {
    const resource = this.i18n.t('bookings.resource.booking', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }
}
