import { createHash, randomBytes } from 'node:crypto';

/** Event types a webhook endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'person.created',
  'person.deleted',
  'company.deleted',
  'event.published',
  'event.deleted',
  'website.migrated',
  // bookings-invitations' visitor activities
  'booking.created',
  'booking.cancelled',
  'invitation.rejected',
  'ticket.checked_in',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** I5: at most this many deliveries are queued again by one replay (more: 400, name a later `since`). */
export const REPLAY_MAX = 10_000;
/** I6: overlap of the old secret when none is given, and the longest allowed. */
export const DEFAULT_OVERLAP_MINUTES = 24 * 60;
export const MAX_OVERLAP_MINUTES = 7 * 24 * 60;

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The webhook message id of a source event (the `webhook-id`): a UUID derived from the source
 * event id and the type (RFC 9562 version 8, SHA-256 based), so a redelivered source event maps
 * to the same message and creates nothing twice.
 */
export function messageIdOf(sourceEventId: string, type: string): string {
  const h = createHash('sha256').update(`webhook-message:${type}:${sourceEventId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** When the source event happened: a time-ordered (v7) id carries it; otherwise now. */
export function timeOfEventId(id: string, now = new Date()): Date {
  if (id[14] !== '7') return now;
  const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  return Number.isFinite(ms) ? new Date(ms) : now;
}

/** WEBHOOK_RETRY_SCHEDULE_S parsed: milliseconds to wait after attempt 1, 2, ... */
export const parseSchedule = (text: string): number[] =>
  text
    .split(',')
    .map((s) => Number(s.trim()) * 1000)
    .filter((n) => Number.isFinite(n));

/**
 * When the next attempt is due after `attempts` failed ones, or null when the schedule is done
 * (the delivery failed). ±10 % jitter, so receivers that failed together are not hit together.
 */
export function nextAttemptAt(
  schedule: number[],
  attempts: number,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  const base = schedule[attempts - 1];
  if (base === undefined) return null;
  const jitter = base * 0.1 * (random() * 2 - 1);
  return new Date(now.getTime() + Math.round(base + jitter));
}
