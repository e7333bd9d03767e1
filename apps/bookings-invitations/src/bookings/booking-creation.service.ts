import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { AppException, FieldProblem, throwIfProblems } from '@crm/errors';
import { requestHeaders } from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import type { BookingRequest } from './booking-checks';
import { conflict, problem } from './booking-problems';
import { toBooking } from './booking.mapper';
import { BookingsRepository } from './bookings.repository';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import type { CreateBookingInput } from './dto/booking.input';
import type { Booking } from './dto/booking.output';
import { SalesStats, TenantSales } from './tenant-sales';

export const IDEMPOTENCY_KEY_MAX = 200;

export interface CreatedBooking {
  booking: Booking;
  /** true: the answer of an earlier request with the same Idempotency-Key */
  replayed: boolean;
}

/** Names of blanks only are no names (the validator lets ' ' through as not empty). */
function blankNames(input: CreateBookingInput): FieldProblem[] {
  const names: [string, string][] = [
    ['booker.firstname', input.booker.firstname],
    ['booker.lastname', input.booker.lastname],
    ...input.tickets.flatMap((t, i): [string, string][] => [
      [`tickets[${i}].participant.firstname`, t.participant.firstname],
      [`tickets[${i}].participant.lastname`, t.participant.lastname],
    ]),
  ];
  return names.filter(([, v]) => !v.trim()).map(([field]) => ({ field, rule: 'isNotEmpty' }));
}

/** JSON with sorted keys: the same body in another key order is the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * BK1: a public booking. What needs no database (the key's form, blank names) is checked here;
 * then the booking waits for its event's next batch (WriteBatches, BookingBatchWriter), which
 * reads the event and its ticket types once, checks and prices each booking (booking-checks.ts),
 * decides the seats, the invitation and the idempotency key in arrival order and writes it. The
 * answer comes after the batch has committed: no booking is confirmed before it is stored.
 */
@Injectable()
export class BookingCreation {
  constructor(
    private readonly repo: BookingsRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly i18n: I18nService,
    private readonly sales: TenantSales,
  ) {}

  /** Batches written since start and the requests in them; requests routed, by way. */
  get batchStats(): SalesStats {
    return this.sales.stats;
  }

  private eventNotFound(ctx: RequestContext, eventId: string) {
    const resource = this.i18n.t('bookings.resource.event', { lang: ctx.language });
    return AppException.notFound(resource as string, eventId);
  }

  async create(
    ctx: RequestContext,
    input: CreateBookingInput,
    idempotencyKey?: string,
    now = new Date(),
  ): Promise<CreatedBooking> {
    if (
      idempotencyKey !== undefined &&
      (!idempotencyKey.trim() || idempotencyKey.length > IDEMPOTENCY_KEY_MAX)
    ) {
      throwIfProblems([problem('Idempotency-Key', 'idempotencyKey')]);
    }
    throwIfProblems(blankNames(input));
    const requestHash = createHash('sha256').update(canonical(input)).digest('hex');
    const key = idempotencyKey?.trim();
    const request: BookingRequest = {
      kind: 'booking',
      tenantId: ctx.tenantId,
      language: ctx.language,
      eventId: input.eventId.toLowerCase(),
      input,
      key,
      requestHash,
      now,
      origin: requestHeaders(),
    };
    const outcome = await this.sales.book(request);
    switch (outcome.kind) {
      case 'written':
        return { booking: outcome.booking, replayed: false };
      case 'keyTaken':
        return { booking: await this.replay(ctx, key!, requestHash), replayed: true };
      case 'eventGone':
        throw this.eventNotFound(ctx, input.eventId);
      case 'refused':
        throw outcome.error;
    }
  }

  /** The first answer for `key` again; a different body with the same key is a 409. */
  private async replay(ctx: RequestContext, key: string, requestHash: string): Promise<Booking> {
    const row = await this.keys.find(ctx.tenantId, key);
    if (!row || row.requestHash !== requestHash) {
      throw conflict('idempotencyConflict', { key: key.slice(0, 200) }, [
        problem('Idempotency-Key', 'idempotencyConflict'),
      ]);
    }
    const booking = await this.repo.find(ctx.tenantId, row.bookingId);
    // the first booking was deleted meanwhile: the key cannot answer any more
    if (!booking)
      throw conflict('idempotencyConflict', { key }, [
        problem('Idempotency-Key', 'idempotencyConflict'),
      ]);
    return toBooking(booking, 'public');
  }
}
