import { randomUUID } from 'node:crypto';
import { headers as natsHeaders, type MsgHdrs } from 'nats';
import {
  currentRequest,
  currentTraceparent,
  fieldsFromHeaders,
  REQUEST_ID_HEADER,
  type RequestFields,
  runInRequest,
} from '@crm/logging';
import { inSpan, tracingEnabled, traceHeaders } from '@crm/telemetry';

/** Header naming the tenant of a message (events' payloads carry it too; this is for logs). */
export const TENANT_HEADER = 'Crm-Tenant-Id';

/** Headers as messages and queued rows carry them: a NATS message's, or a JSONB column's. */
export type MessageHeaders = MsgHdrs | Record<string, string> | null | undefined;

const read = (h: MessageHeaders, name: string): string | undefined => {
  if (!h) return undefined;
  const value =
    typeof (h as MsgHdrs).get === 'function'
      ? (h as MsgHdrs).get(name)
      : (h as Record<string, string>)[name];
  return value || undefined;
};

/**
 * What a message sent now (a request, an event, a queued mail) carries of the request being
 * handled, so that the lines it causes elsewhere have the same request id and trace: X-Request-Id,
 * the tenant, and the W3C trace context, the current span's when tracing is on, else the
 * traceparent the request came with. Empty outside a request when nothing is traced.
 */
export function requestHeaders(): Record<string, string> {
  const carried = traceHeaders();
  const fields = currentRequest();
  if (!fields) return carried;
  if (!carried.traceparent) {
    const parent = currentTraceparent();
    if (parent) carried.traceparent = parent;
  }
  carried[REQUEST_ID_HEADER] = fields.requestId;
  if (fields.tenant) carried[TENANT_HEADER] = fields.tenant;
  return carried;
}

/** The same as NATS headers (undefined when there is nothing to carry). */
export function natsHeadersOf(carried: Record<string, string>): MsgHdrs | undefined {
  const names = Object.keys(carried);
  if (!names.length) return undefined;
  const h = natsHeaders();
  for (const name of names) h.set(name, carried[name]);
  return h;
}

/** The fields of the request a message or row belongs to, from its headers. */
export const messageFields = (h: MessageHeaders, fallbackId: string): RequestFields =>
  fieldsFromHeaders(
    {
      requestId: read(h, REQUEST_ID_HEADER),
      tenant: read(h, TENANT_HEADER),
      traceparent: read(h, 'traceparent'),
    },
    fallbackId,
  );

/**
 * Runs `fn`, the handling of a message (or of a row queued by a request), as part of the request
 * that sent it: its lines carry that request's id (a new one when it names none), and with
 * tracing on it is a span of `kind` whose parent is the sender's trace context.
 */
export function inMessageContext<T>(
  span: {
    name: string;
    kind: 'server' | 'consumer' | 'client';
    attributes?: Record<string, string>;
  },
  h: MessageHeaders,
  fn: () => Promise<T>,
  fallbackId: string = randomUUID(),
): Promise<T> {
  if (!tracingEnabled()) return runInRequest(messageFields(h, fallbackId), fn);
  // the span first: the fields take their trace id from it
  return inSpan(span.name, span.kind, h, span.attributes ?? {}, () =>
    runInRequest(messageFields(h, fallbackId), fn),
  );
}
