import { Injectable } from '@nestjs/common';
import type { Tx } from '../database/tx';

/** The invoice numbers drawn so far: InvoiceCounter rows, one per tenant and year. */
@Injectable()
export class InvoiceCounterRepository {
  /**
   * Draws the next invoice number of the tenant and year and sets it on the booking, in one
   * statement of the caller's transaction: the counter row stays locked until the commit, so two
   * bookings never share a number, and a rollback takes the increment back (no gap). Callers
   * draw it LAST in their transaction (it is the tenant's hottest row). `2026-000042`; from the
   * millionth number on, the digits simply grow.
   */
  async draw(
    tx: Tx,
    tenantId: string,
    year: number,
    bookingId: string,
  ): Promise<{ invoiceNumber: string; invoiceDate: Date }> {
    const [row] = await tx.$queryRaw<{ invoiceNumber: string; invoiceDate: Date }[]>`
    WITH c AS (
      INSERT INTO "InvoiceCounter" ("tenantId", year, last) VALUES (${tenantId}, ${year}, 1)
      ON CONFLICT ("tenantId", year) DO UPDATE SET last = "InvoiceCounter".last + 1
      RETURNING last)
    UPDATE "Booking" b SET "invoiceNumber" = ${String(year)} || '-' ||
        CASE WHEN c.last < 1000000 THEN lpad(c.last::text, 6, '0') ELSE c.last::text END,
        "invoiceDate" = now()
      FROM c WHERE b.id = ${bookingId}::uuid AND b."tenantId" = ${tenantId}
    RETURNING b."invoiceNumber", b."invoiceDate"`;
    return row;
  }

  /**
   * draw() for a batch: `bookingIds.length` numbers drawn with one increment of the
   * counter and given in the order of `bookingIds`. The counter row is locked from here to the
   * commit, once per batch instead of once per booking.
   */
  async drawMany(
    tx: Tx,
    tenantId: string,
    year: number,
    bookingIds: string[],
  ): Promise<Map<string, { invoiceNumber: string; invoiceDate: Date }>> {
    if (!bookingIds.length) return new Map();
    const rows = await tx.$queryRaw<{ id: string; invoiceNumber: string; invoiceDate: Date }[]>`
    WITH c AS (
      INSERT INTO "InvoiceCounter" ("tenantId", year, last)
      VALUES (${tenantId}, ${year}, ${bookingIds.length})
      ON CONFLICT ("tenantId", year) DO UPDATE SET last = "InvoiceCounter".last + ${bookingIds.length}
      RETURNING last - ${bookingIds.length} AS before)
    UPDATE "Booking" b SET "invoiceNumber" = ${String(year)} || '-' ||
        CASE WHEN c.before + x.n < 1000000 THEN lpad((c.before + x.n)::text, 6, '0')
             ELSE (c.before + x.n)::text END,
        "invoiceDate" = now()
      FROM c, unnest(${bookingIds}::uuid[]) WITH ORDINALITY AS x(id, n)
     WHERE b.id = x.id AND b."tenantId" = ${tenantId}
    RETURNING b.id::text, b."invoiceNumber", b."invoiceDate"`;
    return new Map(rows.map((r) => [r.id, r]));
  }
}
