import { contextSlot } from '@crm/call-context';
import { currentTraceId } from '@crm/telemetry';

/** What a request's lines carry: its id, the tenant and the W3C trace it belongs to. */
export interface RequestFields {
  requestId: string;
  tenant?: string;
  traceId?: string;
}

/**
 * The request (or message) being handled, for every line logged meanwhile: a slot of the call's
 * context, read by the logger's mixin when a line is written. Cheaper than a child logger per
 * request, which serialised and redacted its bindings whether or not a line was ever written
 * (measured: the bare health route lost a third of its throughput to it).
 */
const requests = contextSlot<RequestFields>();

/** The fields of the request or message being handled here, if any. */
export const currentRequest = (): RequestFields | undefined => requests.get();

/** Runs `fn` (and everything it starts) as part of the request or message of `fields`. */
export const runInRequest = <T>(fields: RequestFields, fn: () => T): T => requests.run(fields, fn);

/**
 * The `traceparent` a request or message came with, by its fields: passed on in the messages it
 * sends when nothing is traced here. Beside the fields, not in them: it is no field of the lines.
 */
const traceparents = new WeakMap<RequestFields, string>();

/** The W3C `traceparent` the current request or message came with, if any. */
export const currentTraceparent = (): string | undefined => {
  const fields = requests.get();
  return fields && traceparents.get(fields);
};

/** The header that names a request, over HTTP and in NATS messages and queued rows. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * What a request id (or a tenant id) may look like to be written into every line and passed on:
 * what the gateway accepts from a client is exactly what the services keep, so one call's lines
 * match on both sides.
 */
const SANE_ID = /^[\w.:@/+=-]{1,128}$/;

/** Whether `id` is fit to be a request id (else the caller makes one). */
export const acceptableRequestId = (id: unknown): id is string =>
  typeof id === 'string' && SANE_ID.test(id);

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const NO_TRACE = '0'.repeat(32);

/**
 * A request's or message's fields from the headers that carry them (HTTP: X-Request-Id,
 * X-Service-TenantId, traceparent; NATS messages and queued rows: X-Request-Id, Crm-Tenant-Id,
 * traceparent), `fallbackId` when it brought no usable id. Anything that does not look like an
 * id, a tenant or a trace context is dropped (it would be written into every line).
 */
export function fieldsFromHeaders(
  given: { requestId?: string; tenant?: string; traceparent?: string },
  fallbackId: string,
): RequestFields {
  const tenant = given.tenant?.trim();
  const fields: RequestFields = {
    requestId: acceptableRequestId(given.requestId) ? given.requestId : fallbackId,
    ...(tenant && SANE_ID.test(tenant) ? { tenant } : {}),
  };
  const parent = TRACEPARENT.exec(given.traceparent ?? '');
  // With tracing on, the span being handled (the request's, or the message's, a child of the
  // caller's); without, the trace the caller sent
  const traceId = currentTraceId() ?? parent?.[1];
  if (traceId && traceId !== NO_TRACE) fields.traceId = traceId;
  if (parent && parent[1] !== NO_TRACE) traceparents.set(fields, parent[0]);
  return fields;
}
