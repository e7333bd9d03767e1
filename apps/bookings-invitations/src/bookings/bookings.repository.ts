import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../generated/prisma/client';
import type { BookingWithTickets } from './booking.mapper';

export type Tx = Prisma.TransactionClient;

export const BOOKING_SORT_FIELDS = [
  'dateCreated',
  'dateModified',
  'bookerLastname',
  'bookerFirstname',
  'bookerEmail',
  'totalGross',
  'status',
  'paymentStatus',
  'invoiceNumber',
  'id',
] as const;

/** Waiting for a pooled connection under a burst of bookings is fine; a 500 is not. */
export const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 } as const;

/** Booking rows; every query is scoped to the tenant. */
@Injectable()
export class BookingsRepository {
  constructor(readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, TX_OPTIONS);
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<BookingWithTickets | null> {
    return db.booking.findFirst({ where: { tenantId, id }, include: { tickets: true } });
  }

  /** The booking row locked until the transaction ends (null: not the tenant's). */
  async lock(tx: Tx, tenantId: string, id: string): Promise<BookingWithTickets | null> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM "Booking" WHERE "tenantId" = ${tenantId} AND id = ${id}::uuid
      FOR UPDATE`;
    return rows.length ? this.find(tenantId, id, tx) : null;
  }

  page(
    where: Prisma.BookingWhereInput,
    opts: { skip: number; take: number; orderBy: Prisma.BookingOrderByWithRelationInput[] },
  ): Promise<[BookingWithTickets[], number]> {
    return this.prisma.$transaction([
      this.prisma.booking.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
        include: { tickets: true },
        relationLoadStrategy: 'join',
      }),
      this.prisma.booking.count({ where }),
    ]);
  }
}
