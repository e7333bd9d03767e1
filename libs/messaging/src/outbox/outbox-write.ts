import { OUTBOX_CHANNEL, OUTBOX_TABLE, OutboxTx } from './outbox-db';
import { requestHeaders } from '../message-context';
import { uuidv7 } from './uuid7';

export interface NewOutboxEvent {
  tenantId: string;
  /** A subject the event stream captures (`<service>.<aggregate>.<verb>`, CRM_EVENT_SUBJECTS). */
  subject: string;
  /** The contract payload (contracts/), JSON-serialisable. */
  payload: object;
  /** Given when the caller needs it beforehand; a new time-ordered UUID (v7) otherwise. */
  id?: string;
  /**
   * The request the event belongs to (X-Request-Id, tenant) and the trace context it continues
   * (W3C `traceparent`...), published as the message's headers: by default the current request's
   * (requestHeaders) for addOutboxEvent; addOutboxEvents, which writes for several calls at once,
   * takes only what is given.
   */
  headers?: Record<string, string>;
}

/** Headers worth a column: none is stored as NULL. */
const headersJson = (h: Record<string, string> | undefined) =>
  h && Object.keys(h).length ? JSON.stringify(h) : null;

/**
 * Writes an event in the caller's transaction: it is published only if the change commits, and
 * never lost if NATS is down. Same row as `tx.outboxEvent.create({ data: { id, tenantId, subject,
 * payload } })`; in addition it notifies the relay (delivered by PostgreSQL on commit).
 * Returns the event id, which becomes the message's `Nats-Msg-Id`. Rows are published ordered by
 * (dateCreated, id): time-ordered ids keep the order of the events of one transaction.
 */
export async function addOutboxEvent(tx: OutboxTx, event: NewOutboxEvent): Promise<string> {
  const id = event.id ?? uuidv7();
  await tx.$executeRawUnsafe(
    `WITH ins AS (
       INSERT INTO ${OUTBOX_TABLE} ("id", "tenantId", "subject", "payload", "headers")
       VALUES ($1::uuid, $2, $3, $4::jsonb, $5::jsonb) RETURNING 1
     )
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM ins`,
    id,
    event.tenantId,
    event.subject,
    JSON.stringify(event.payload),
    headersJson(event.headers ?? requestHeaders()),
  );
  return id;
}

/**
 * addOutboxEvent for many events in one statement (a batch of bookings): ids are time-ordered in
 * the order given, so they are published in that order. Returns the ids.
 */
export async function addOutboxEvents(tx: OutboxTx, events: NewOutboxEvent[]): Promise<string[]> {
  if (!events.length) return [];
  const ids = events.map((e) => e.id ?? uuidv7());
  await tx.$executeRawUnsafe(
    `WITH ins AS (
       INSERT INTO ${OUTBOX_TABLE} ("id", "tenantId", "subject", "payload", "headers")
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[], $5::jsonb[])
       RETURNING 1
     )
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') WHERE EXISTS (SELECT FROM ins)`,
    ids,
    events.map((e) => e.tenantId),
    events.map((e) => e.subject),
    events.map((e) => JSON.stringify(e.payload)),
    events.map((e) => headersJson(e.headers)),
  );
  return ids;
}
