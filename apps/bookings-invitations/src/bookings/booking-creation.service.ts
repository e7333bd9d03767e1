import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, FieldProblem, throwIfProblems } from '@crm/errors';
import {
  addOutboxEvent,
  BookingCreatedEvent,
  InvitationRespondedEvent,
  Subjects,
} from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import { CapacityRepository } from '../capacity/capacity.repository';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import type { EventCopy, Prisma, TicketType } from '../generated/prisma/client';
import { enqueueMail } from '../mails/mail-outbox';
import { dayIn, ticketTax } from '../ticket-types/ticket-prices';
import { addBookingHistory, PUBLIC_ACTOR } from './booking-history';
import { checkAnswers } from './booking-form';
import { drawInvoiceNumber } from './invoice-numbers';
import { BookingMails } from './booking-mails';
import { BookingWithTickets, toBooking } from './booking.mapper';
import { BookingsRepository, Tx } from './bookings.repository';
import type { CreateBookingInput } from './dto/booking.input';
import type { Booking } from './dto/booking.output';

const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** Statuses of an event copy that take no bookings (a published draft does: publishing decides). */
const CLOSED_STATUSES = new Set(['cancelled', 'completed', 'deleted']);
export const IDEMPOTENCY_KEY_MAX = 200;

const problem = (field: string, rule: string, args?: Record<string, string | number>) => ({
  field,
  rule,
  args,
  messageKey: `bookings.problems.${rule}`,
});

/** A conflict that names the field and rule, like a 400 does. */
export const conflict = (
  messageKey: string,
  args: Record<string, string | number>,
  problems: FieldProblem[] = [],
) => new AppException(ErrorCode.CONFLICT, `bookings.errors.${messageKey}`, args, problems);

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

/** Thrown inside the transaction when the idempotency key is taken: it rolls everything back. */
class KeyTaken extends Error {}

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

interface PricedTicket {
  id: string;
  index: number;
  type: TicketType;
  gross: string;
  net: string;
  tax: string;
  ratePercent: string;
  taxRateId: string | null;
  participant: { firstname: string; lastname: string; email: string | null };
}

/**
 * BK1: a public booking. Everything is checked before the transaction; in it, the idempotency
 * key row first, then the booking, its tickets, history, outbox event and confirmation mail,
 * then the capacity counters (one conditional UPDATE each, so the row locks are taken late and
 * held only until the commit), then the invoice number last (the per-tenant-year counter row is
 * the hottest). Nothing slow runs after the take: mails and messages are outbox rows.
 */
@Injectable()
export class BookingCreation {
  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly capacity: CapacityRepository,
    private readonly mails: BookingMails,
    private readonly i18n: I18nService,
  ) {}

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
    const eventId = input.eventId.toLowerCase();
    const event = await this.copies.find(ctx.tenantId, eventId);
    if (!event || event.deleted) throw this.eventNotFound(ctx, input.eventId);
    if (!event.published || CLOSED_STATUSES.has(event.status)) {
      throw conflict('notOpen', { eventId }, [problem('eventId', 'notOpen')]);
    }
    if (event.startsAt && event.startsAt.getTime() <= now.getTime()) {
      throwIfProblems([problem('eventId', 'eventStarted')]);
    }
    const tickets = await this.priceTickets(ctx, event, input, now);
    const answerProblems = checkAnswers(event.bookingFormFields, input.answers);
    const websiteId = input.websiteId?.toLowerCase() ?? null;
    if (websiteId && !event.websiteIds.includes(websiteId)) {
      answerProblems.push(problem('websiteId', 'unknownWebsite', { value: websiteId }));
    }
    throwIfProblems(answerProblems);

    const requestHash = createHash('sha256').update(canonical(input)).digest('hex');
    const key = idempotencyKey?.trim();
    try {
      const booking = await this.write(
        ctx,
        event,
        input,
        tickets,
        { key, requestHash, websiteId },
        now,
      );
      return { booking, replayed: false };
    } catch (err) {
      if (!(err instanceof KeyTaken) || !key) throw err;
      return { booking: await this.replay(ctx, key, requestHash), replayed: true };
    }
  }

  /** The first answer for `key` again; a different body with the same key is a 409. */
  private async replay(ctx: RequestContext, key: string, requestHash: string): Promise<Booking> {
    const row = await this.repo.prisma.idempotencyKey.findUnique({
      where: { tenantId_key: { tenantId: ctx.tenantId, key } },
    });
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

  /** Checks the ticket types of each ticket and freezes its price, net and tax. */
  private async priceTickets(
    ctx: RequestContext,
    event: EventCopy,
    input: CreateBookingInput,
    now: Date,
  ): Promise<PricedTicket[]> {
    const ids = [...new Set(input.tickets.map((t) => t.ticketTypeId.toLowerCase()))];
    const types = await this.repo.prisma.ticketType.findMany({
      where: { tenantId: ctx.tenantId, eventId: event.eventId, id: { in: ids } },
    });
    const byId = new Map(types.map((t) => [t.id, t]));
    const problems: FieldProblem[] = [];
    const firstIndex = new Map<string, number>();
    const counts = new Map<string, number>();
    input.tickets.forEach((t, i) => {
      const id = t.ticketTypeId.toLowerCase();
      if (!firstIndex.has(id)) firstIndex.set(id, i);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    });
    const currency =
      types.find((t) => t.id === input.tickets[0].ticketTypeId.toLowerCase())?.currency ??
      types[0]?.currency;
    for (const [id, i] of firstIndex) {
      const field = `tickets[${i}].ticketTypeId`;
      const type = byId.get(id);
      if (!type) {
        problems.push(problem(field, 'unknownTicketType', { value: id }));
        continue;
      }
      const name = type.name;
      const count = counts.get(id)!;
      if (!type.active) problems.push(problem(field, 'inactive', { name }));
      else if (type.saleStartsAt && type.saleStartsAt > now)
        problems.push(
          problem(field, 'saleNotStarted', { name, at: type.saleStartsAt.toISOString() }),
        );
      else if (type.saleEndsAt && type.saleEndsAt <= now)
        problems.push(problem(field, 'saleEnded', { name, at: type.saleEndsAt.toISOString() }));
      if (count < type.minPerBooking)
        problems.push(problem(field, 'minPerBooking', { name, min: type.minPerBooking }));
      if (type.maxPerBooking != null && count > type.maxPerBooking)
        problems.push(problem(field, 'maxPerBooking', { name, max: type.maxPerBooking }));
      if (currency && type.currency !== currency)
        problems.push(problem(field, 'currencyMix', { currency }));
    }
    throwIfProblems(problems);
    return input.tickets.map((t, index) => {
      const type = byId.get(t.ticketTypeId.toLowerCase())!;
      const gross = type.price.toFixed(2);
      // the type's own rate, else the event's, on the event's start day in its zone; no rate
      // known: the ticket is sold without tax (rate 0) rather than refused
      const tax = ticketTax(gross, type.taxRateId ?? event.taxRateId ?? null, event, now);
      return {
        id: randomUUID(),
        index,
        type,
        gross,
        net: tax?.net ?? gross,
        tax: tax?.tax ?? '0.00',
        ratePercent: tax?.rate ?? '0.00',
        taxRateId: tax?.taxRateId ?? null,
        participant: {
          firstname: t.participant.firstname.trim(),
          lastname: t.participant.lastname.trim(),
          email: t.participant.email?.trim() || null,
        },
      };
    });
  }

  private async write(
    ctx: RequestContext,
    event: EventCopy,
    input: CreateBookingInput,
    tickets: PricedTicket[],
    opts: { key?: string; requestHash: string; websiteId: string | null },
    now: Date,
  ): Promise<Booking> {
    const tenantId = ctx.tenantId;
    const bookingId = randomUUID();
    const sum = (f: (t: PricedTicket) => string) =>
      tickets.reduce((s, t) => s.plus(f(t)), new Money(0)).toFixed(2);
    const totals = { net: sum((t) => t.net), tax: sum((t) => t.tax), gross: sum((t) => t.gross) };
    const paid = new Money(totals.gross).gt(0);
    const currency = tickets[0].type.currency;
    const booker = {
      firstname: input.booker.firstname.trim(),
      lastname: input.booker.lastname.trim(),
      email: input.booker.email.trim(),
    };

    return this.repo.transaction(async (tx) => {
      if (opts.key) {
        // a concurrent request with the same key waits here until the first one commits
        const n = await tx.$executeRaw`
          INSERT INTO "IdempotencyKey" ("tenantId", key, "requestHash", "bookingId")
          VALUES (${tenantId}, ${opts.key}, ${opts.requestHash}, ${bookingId}::uuid)
          ON CONFLICT DO NOTHING`;
        if (n === 0) throw new KeyTaken();
      }
      const invitation = input.invitationToken
        ? await this.takeInvitation(tx, tenantId, event.eventId, input.invitationToken, bookingId)
        : null;

      const row = await tx.booking.create({
        data: {
          id: bookingId,
          tenantId,
          eventId: event.eventId,
          status: 'confirmed',
          // nothing to pay: settled from the start
          paymentStatus: paid ? 'open' : 'paid',
          bookerFirstname: booker.firstname,
          bookerLastname: booker.lastname,
          bookerEmail: booker.email,
          bookerPersonId: invitation?.personId ?? null,
          language: ctx.language,
          answers: (input.answers ?? undefined) as Prisma.InputJsonValue | undefined,
          invitationId: invitation?.id ?? null,
          websiteId: opts.websiteId,
          currency,
          totalNet: totals.net,
          totalTax: totals.tax,
          totalGross: totals.gross,
          cancellationTiers: (event.cancellationTiers ?? undefined) as
            Prisma.InputJsonValue | undefined,
          confirmationToken: randomBytes(16).toString('base64url'),
          createdBy: 'public',
          modifiedBy: 'public',
        },
      });
      await tx.eventTicket.createMany({
        data: tickets.map((t, i) => ({
          id: t.id,
          tenantId,
          eventId: event.eventId,
          bookingId,
          ticketTypeId: t.type.id,
          ticketTypeName: t.type.name,
          priceGross: t.gross,
          priceNet: t.net,
          priceTax: t.tax,
          taxRatePercent: t.ratePercent,
          taxRateId: t.taxRateId,
          status: 'valid',
          participantFirstname: t.participant.firstname,
          participantLastname: t.participant.lastname,
          participantEmail: t.participant.email,
          // keeps the tickets in the booking's order
          dateCreated: new Date(now.getTime() + i),
          dateModified: now,
        })),
      });
      await addBookingHistory(tx, PUBLIC_ACTOR, {
        tenantId,
        eventId: event.eventId,
        bookingId,
        action: 'created',
        data: {
          tickets: tickets.length,
          totalGross: totals.gross,
          currency,
          invitationId: invitation?.id ?? null,
        },
      });
      const activity = {
        tenantId,
        eventId: event.eventId,
        eventTitle: event.title,
        personId: invitation?.personId ?? null,
        language: ctx.language,
        at: now.toISOString(),
      };
      const created: BookingCreatedEvent = {
        ...activity,
        bookingId,
        tickets: tickets.length,
        totalGross: totals.gross,
        currency,
        invitationId: invitation?.id ?? null,
      };
      await addOutboxEvent(tx, {
        tenantId,
        subject: Subjects.bookingsInvitations.bookingCreated,
        payload: created,
      });
      if (invitation) {
        const accepted: InvitationRespondedEvent = { ...activity, invitationId: invitation.id };
        await addOutboxEvent(tx, {
          tenantId,
          subject: Subjects.bookingsInvitations.invitationAccepted,
          payload: accepted,
        });
      }
      await enqueueMail(
        tx,
        this.mails.confirmation(
          {
            tenantId,
            bookingId,
            language: ctx.language,
            bookerName: `${booker.firstname} ${booker.lastname}`,
            bookerEmail: booker.email,
            currency,
          },
          event,
          tickets.map((t) => ({
            id: t.id,
            ticketTypeName: t.type.name,
            participant: `${t.participant.firstname} ${t.participant.lastname}`,
            priceGross: t.gross,
          })),
          totals,
          paid,
        ),
      );

      // the hot rows, last: quota counters (sorted by id) and the event's capacity
      const soldOut = await this.capacity.take(
        tx,
        tenantId,
        event.eventId,
        tickets.map((t) => ({ ticketTypeId: t.type.id, count: 1 })),
      );
      if (soldOut?.kind === 'ticketType') {
        const t = tickets.find((x) => x.type.id === soldOut.ticketTypeId)!;
        throw conflict('soldOut', { name: t.type.name }, [
          problem(`tickets[${t.index}].ticketTypeId`, 'soldOut', { name: t.type.name }),
        ]);
      }
      if (soldOut?.kind === 'event') {
        // the event was deleted since the checks: that is no full house
        const copy = await this.copies.find(tenantId, event.eventId, tx);
        if (!copy || copy.deleted) throw this.eventNotFound(ctx, event.eventId);
        throw conflict('capacityReached', {}, [problem('eventId', 'capacityReached')]);
      }

      let invoiceNumber: string | null = null;
      let invoiceDate: Date | null = null;
      if (paid) {
        // gap-free per tenant and year: the counter row is locked until the commit, and a
        // rollback undoes the increment with everything else
        const year = Number(dayIn(now, event.timeZone).slice(0, 4));
        const inv = await drawInvoiceNumber(tx, tenantId, year, bookingId);
        invoiceNumber = inv.invoiceNumber;
        invoiceDate = inv.invoiceDate;
      }
      return toBooking(
        {
          ...row,
          invoiceNumber,
          invoiceDate,
          tickets: tickets.map((t, i) => ({
            id: t.id,
            tenantId,
            eventId: event.eventId,
            bookingId,
            ticketTypeId: t.type.id,
            ticketTypeName: t.type.name,
            priceGross: new Money(t.gross),
            priceNet: new Money(t.net),
            priceTax: new Money(t.tax),
            taxRatePercent: new Money(t.ratePercent),
            taxRateId: t.taxRateId,
            status: 'valid',
            participantFirstname: t.participant.firstname,
            participantLastname: t.participant.lastname,
            participantEmail: t.participant.email,
            participantInformation: null,
            integrationData: null,
            revokedAt: null,
            dateCreated: new Date(now.getTime() + i),
            dateModified: now,
          })) as unknown as BookingWithTickets['tickets'],
        },
        'public',
      );
    });
  }

  /**
   * The invitation of `token` for this event, locked and marked accepted by this booking; its
   * person becomes the booker's person (only an invitation may name one on a public booking).
   */
  private async takeInvitation(
    tx: Tx,
    tenantId: string,
    eventId: string,
    token: string,
    bookingId: string,
  ): Promise<{ id: string; personId: string | null }> {
    const [inv] = await tx.$queryRaw<
      { id: string; personId: string | null; status: string; bookingId: string | null }[]
    >`
      SELECT id::text, "personId"::text, status, "bookingId"::text FROM "Invitation"
       WHERE "tenantId" = ${tenantId} AND token = ${token} AND "eventId" = ${eventId}::uuid
       FOR UPDATE`;
    if (!inv) throwIfProblems([problem('invitationToken', 'unknownInvitation')]);
    if (inv.status === 'rejected' || inv.status === 'withdrawn') {
      throw conflict('invitationNotOpen', { status: inv.status }, [
        problem('invitationToken', 'invitationNotOpen', { status: inv.status }),
      ]);
    }
    if (inv.bookingId) {
      throw conflict('invitationUsed', {}, [problem('invitationToken', 'invitationUsed')]);
    }
    await tx.$executeRaw`
      UPDATE "Invitation" SET status = 'accepted', "respondedAt" = now(),
             "bookingId" = ${bookingId}::uuid, "dateModified" = now(), "modifiedBy" = 'public'
       WHERE id = ${inv.id}::uuid`;
    return { id: inv.id, personId: inv.personId };
  }
}
