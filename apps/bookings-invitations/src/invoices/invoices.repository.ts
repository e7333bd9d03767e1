import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Mail as MailRow, Prisma } from '../generated/prisma/client';

export type Tx = Prisma.TransactionClient;

export const BOOKING_MAIL_SORT_FIELDS = ['dateCreated', 'sentAt', 'status', 'kind', 'id'] as const;

const bookingWithTickets = {
  tickets: { orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.BookingInclude;

export type BookingWithTickets = Prisma.BookingGetPayload<{ include: typeof bookingWithTickets }>;

/** What the invoices read and write of bookings and their mails; every query is tenant-scoped. */
@Injectable()
export class InvoicesRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** The booking with its tickets (one query), null when it is not the tenant's. */
  booking(tenantId: string, id: string, db: Tx = this.prisma): Promise<BookingWithTickets | null> {
    return db.booking.findFirst({ where: { tenantId, id }, include: bookingWithTickets });
  }

  bookingExists(tenantId: string, id: string): Promise<{ id: string } | null> {
    return this.prisma.booking.findFirst({ where: { tenantId, id }, select: { id: true } });
  }

  event(tenantId: string, eventId: string) {
    return this.prisma.eventCopy.findUnique({
      where: { tenantId_eventId: { tenantId, eventId } },
      select: { title: true, startsAt: true, timeZone: true },
    });
  }

  /**
   * Sets the number of a booking that has none (count 0: it has one, or is not the tenant's). A
   * number another booking of the tenant holds fails on the unique index (tenantId,
   * invoiceNumber), also when both writes race.
   */
  async setInvoiceNumber(
    tx: Tx,
    tenantId: string,
    id: string,
    invoiceNumber: string,
    stamps: { modifiedBy: string; modifiedByUserId: string | null },
  ): Promise<Date | null> {
    const invoiceDate = new Date();
    const { count } = await tx.booking.updateMany({
      where: { tenantId, id, invoiceNumber: null },
      data: { invoiceNumber, invoiceDate, ...stamps },
    });
    return count ? invoiceDate : null;
  }

  mailsPage(
    tenantId: string,
    bookingId: string,
    opts: { skip: number; take: number; orderBy: Prisma.MailOrderByWithRelationInput[] },
  ): Promise<[MailRow[], number]> {
    const where: Prisma.MailWhereInput = { tenantId, bookingId };
    return this.prisma.$transaction([
      this.prisma.mail.findMany({ where, orderBy: opts.orderBy, skip: opts.skip, take: opts.take }),
      this.prisma.mail.count({ where }),
    ]);
  }

  mail(tx: Tx, tenantId: string, id: string): Promise<MailRow | null> {
    return tx.mail.findFirst({ where: { tenantId, id } });
  }
}
