/** Headers every API call must carry (names are case-insensitive on the wire). */
export const REQUIRED_HEADERS = [
  'X-Integration-Name',
  'X-Integration-Provider',
  'X-Service-TenantId',
] as const;

/** The tenant of a call, as Node's parsed headers name it (lower case). */
export const TENANT_ID_HEADER = 'x-service-tenantid';

export const OPTIONAL_HEADERS = ['X-Integration-Contact', 'Accept-Language'] as const;

/** Set by the gateway after it checked the API key; stripped from what clients send. */
export const CALLER_ID_HEADER = 'X-Caller-Id';
/** Shared secret proving a call came through the gateway (when services are configured with one). */
export const INTERNAL_TOKEN_HEADER = 'X-Internal-Token';

/**
 * The fingerprint (method, path, content type and body, hashed) the gateway sends with a keyed
 * POST it forwards (Idempotency-Key): the service keeps it with the key, so that a repeat with
 * another request is a 409. Gateway-only, like the two above.
 */
export const IDEMPOTENCY_FINGERPRINT_HEADER = 'X-Service-Idempotency-Fingerprint';
