import type { RequestContext } from '@crm/request-context';

export type BookingAction =
  | 'created'
  | 'cancelled'
  | 'tickets-cancelled'
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
