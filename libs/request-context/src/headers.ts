/** Headers every API call must carry (names are case-insensitive on the wire). */
export const REQUIRED_HEADERS = [
  'X-Integration-Name',
  'X-Integration-Provider',
  'X-Service-TenantId',
] as const;

export const OPTIONAL_HEADERS = ['X-Integration-Contact', 'Accept-Language'] as const;

/** Set by the gateway after it checked the API key; stripped from what clients send. */
export const CALLER_ID_HEADER = 'X-Caller-Id';
/** Shared secret proving a call came through the gateway (when services are configured with one). */
export const INTERNAL_TOKEN_HEADER = 'X-Internal-Token';
