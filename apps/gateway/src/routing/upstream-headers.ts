import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import {
  CALLER_ID_HEADER,
  IDEMPOTENCY_FINGERPRINT_HEADER,
  INTERNAL_TOKEN_HEADER,
} from '@crm/request-context';

/** Headers of one connection, not of the message (RFC 9110 7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** Framing of the client's message: the gateway frames the body it sends on itself. */
const FRAMING = new Set(['transfer-encoding']);

/** Only the gateway may set these: a client sending them is ignored. */
const GATEWAY_ONLY = new Set(
  [CALLER_ID_HEADER, INTERNAL_TOKEN_HEADER, IDEMPOTENCY_FINGERPRINT_HEADER].map((h) =>
    h.toLowerCase(),
  ),
);

/**
 * The tenant's API key ends at the gateway: services learn the verified key id (X-Caller-Id),
 * so the secret never reaches their logs or a compromised service.
 */
const CREDENTIALS = new Set(['authorization', 'cookie']);

const NONE: ReadonlySet<string> = new Set();

/** Every name above plus Host, in one set: one lookup per header on the hot path. */
const NOT_FORWARDED: ReadonlySet<string> = new Set([
  ...HOP_BY_HOP,
  ...FRAMING,
  ...GATEWAY_ONLY,
  ...CREDENTIALS,
  'host',
]);

/** Hop-by-hop names and Transfer-Encoding: what never goes back to the client. */
const NOT_RETURNED: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'transfer-encoding']);

function connectionListed(headers: IncomingHttpHeaders): ReadonlySet<string> {
  const value = headers.connection;
  // Mostly absent or "keep-alive": nothing to split on the hot path.
  if (!value || value === 'keep-alive') return NONE;
  return new Set(
    (value ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

export interface UpstreamIdentity {
  /** The verified API key id (X-Caller-Id); null for public operations. */
  callerId: string | null;
  /** The gateway's shared secret (X-Internal-Token), when configured. */
  internalToken?: string;
  /** host:port of the service. */
  host: string;
  /** Address of the client, appended to X-Forwarded-For. */
  clientAddress?: string;
  /** A keyed POST's fingerprint: the service carries it out once (IDEMPOTENCY_FINGERPRINT_HEADER). */
  idempotencyFingerprint?: string;
}

/** What the service receives: the client's headers, minus hop-by-hop and spoofed ones, plus ours. */
export function upstreamRequestHeaders(
  incoming: IncomingHttpHeaders,
  identity: UpstreamIdentity,
): OutgoingHttpHeaders {
  const listed = connectionListed(incoming);
  const out: OutgoingHttpHeaders = {};
  // for...in: Object.entries allocated an array per header on every call
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || NOT_FORWARDED.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  out.host = identity.host;
  if (incoming.host) out['x-forwarded-host'] = incoming.host;
  if (identity.clientAddress) {
    const prior = incoming['x-forwarded-for'];
    out['x-forwarded-for'] = prior ? `${prior}, ${identity.clientAddress}` : identity.clientAddress;
  }
  if (identity.callerId) out[CALLER_ID_HEADER.toLowerCase()] = identity.callerId;
  if (identity.internalToken) out[INTERNAL_TOKEN_HEADER.toLowerCase()] = identity.internalToken;
  if (identity.idempotencyFingerprint)
    out[IDEMPOTENCY_FINGERPRINT_HEADER.toLowerCase()] = identity.idempotencyFingerprint;
  return out;
}

/** What the client receives: the service's headers minus the hop-by-hop ones (Node frames the body). */
export function downstreamResponseHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const listed = connectionListed(incoming);
  const out: OutgoingHttpHeaders = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || NOT_RETURNED.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}
