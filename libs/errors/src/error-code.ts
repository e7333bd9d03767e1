/** Every error the API answers with. Domain errors reuse these codes with their own message keys. */
export enum ErrorCode {
  BAD_REQUEST = 'BAD_REQUEST',
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  TOO_MANY_REQUESTS = 'TOO_MANY_REQUESTS',
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
  /** A service behind the gateway did not begin its answer in time. */
  GATEWAY_TIMEOUT = 'GATEWAY_TIMEOUT',
  INTERNAL = 'INTERNAL',
}

/** The one place where a code becomes an HTTP status (GraphQL carries it as extensions.statusCode). */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.BAD_REQUEST]: 400,
  [ErrorCode.VALIDATION_FAILED]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.TOO_MANY_REQUESTS]: 429,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.GATEWAY_TIMEOUT]: 504,
  [ErrorCode.INTERNAL]: 500,
};

export function codeForStatus(status: number): ErrorCode {
  const found = (Object.entries(HTTP_STATUS) as [ErrorCode, number][]).find(
    ([code, s]) => s === status && code !== ErrorCode.VALIDATION_FAILED,
  );
  if (found) return found[0];
  return status >= 500 ? ErrorCode.INTERNAL : ErrorCode.BAD_REQUEST;
}
