import { Injectable } from '@nestjs/common';
import type { CreditNote, Prisma } from '../generated/prisma/client';
import { PrismaService } from '../database/prisma.service';
import type { Tx } from '../database/tx';

/** A credit note as it is written (its number is drawn by `issue`); amounts with two decimals. */
export interface NewCreditNote {
  id: string;
  tenantId: string;
  bookingId: string;
  eventId: string;
  year: number;
  issuedAt: Date;
  invoiceNumber: string;
  currency: string;
  language: string;
  bookerFirstname: string;
  bookerLastname: string;
  bookerEmail: string;
  reason: string;
  totalNet: string;
  totalTax: string;
  totalGross: string;
  feeGross: string;
  lines: Prisma.InputJsonValue;
}

/** CreditNote rows and their number counter (CreditNoteCounter); every query scoped to the tenant. */
@Injectable()
export class CreditNotesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Draws the next credit note number of the tenant and year (`2026-C000042`; from the millionth
   * on, the digits simply grow) and writes the credit note with it, in the caller's transaction:
   * the counter row stays locked until the commit, so two credit notes never share a number, and
   * a rollback takes the increment back (no gap). Callers take it LAST in their transaction.
   */
  async issue(tx: Tx, note: NewCreditNote): Promise<CreditNote> {
    const [{ number }] = await tx.$queryRaw<{ number: string }[]>`
      INSERT INTO "CreditNoteCounter" ("tenantId", year, last) VALUES (${note.tenantId}, ${note.year}, 1)
      ON CONFLICT ("tenantId", year) DO UPDATE SET last = "CreditNoteCounter".last + 1
      RETURNING ${String(note.year)} || '-C' ||
        CASE WHEN last < 1000000 THEN lpad(last::text, 6, '0') ELSE last::text END AS number`;
    return tx.creditNote.create({
      data: { ...note, number },
    });
  }

  /** The credit notes of the tenant's bookings among `bookingIds`, oldest first. */
  ofBookings(tenantId: string, bookingIds: readonly string[]): Promise<CreditNote[]> {
    return this.prisma.creditNote.findMany({
      where: { tenantId, bookingId: { in: [...bookingIds] } },
      orderBy: [{ issuedAt: 'asc' }, { number: 'asc' }],
    });
  }

  find(tenantId: string, bookingId: string, id: string): Promise<CreditNote | null> {
    return this.prisma.creditNote.findFirst({ where: { tenantId, bookingId, id } });
  }
}
