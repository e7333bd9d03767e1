import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@crm/request-context';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

export type BookingAction =
  | 'created'
  | 'cancelled'
  | 'deleted'
  | 'booker-changed'
  | 'payment-status-changed'
  | 'payment-deadline-set'
  | 'invoice-number-set'
  | 'invoice-mailed'
  | 'repaired'
  | 'tickets-status-changed'
  | 'tickets-resent'
  | 'checked-in'
  | 'person-merged'
  | 'person-deleted'
  | 'event-deleted';

/** Who did it: the integration of a request, `public` for a visitor, `system` for a consumer. */
export type Actor = { actor: string; actorUserId?: string | null };

export const actorOf = (ctx: RequestContext): Actor => ({
  actor: ctx.integrationName,
  actorUserId: ctx.callerId,
});
export const PUBLIC_ACTOR: Actor = { actor: 'public' };
export const SYSTEM_ACTOR: Actor = { actor: 'system' };

export interface HistoryEntry {
  tenantId: string;
  eventId: string;
  bookingId: string;
  action: BookingAction;
  data?: Record<string, unknown>;
}

/**
 * BK14: every action on a booking, written in the action's transaction. One plain-SQL statement
 * for any number of entries (Prisma's createMany compiled each row: a 100-booking batch spent
 * milliseconds on it).
 */
export async function addBookingHistory(tx: Tx, who: Actor, ...entries: HistoryEntry[]) {
  if (!entries.length) return;
  await tx.$executeRaw`
    INSERT INTO "BookingHistory" (id, "tenantId", "eventId", "bookingId", action, actor,
      "actorUserId", data)
    SELECT x.id, x.tenant, x.event, x.booking, x.action, ${who.actor}, ${who.actorUserId ?? null},
           x.data
      FROM unnest(${entries.map(() => randomUUID())}::uuid[], ${entries.map((e) => e.tenantId)}::text[],
             ${entries.map((e) => e.eventId)}::uuid[], ${entries.map((e) => e.bookingId)}::uuid[],
             ${entries.map((e) => e.action)}::text[],
             ${entries.map((e) => (e.data === undefined ? null : JSON.stringify(e.data)))}::jsonb[])
        AS x(id, tenant, event, booking, action, data)`;
}
