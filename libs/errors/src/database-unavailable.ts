/**
 * Whether `exception` says the service's database cannot be used right now (down, restarting,
 * in crash recovery, out of connections), not that the request was wrong. Such a failure is
 * answered 503 like an unreachable service, so clients and the gateway treat it as "try again",
 * and is not logged as a bug. Recognised by shape, as the Fastify errors in the filter are, so
 * this library stays free of Prisma and pg (the gateway has no database):
 * - Prisma's connection errors (P1001 cannot reach, P1002 timed out, P1008 operation timed out,
 *   P1017 connection closed, P2024 no pool connection in time, P2028 a transaction that could not
 *   start within its maxWait);
 * - a driver adapter error (Prisma 7, @prisma/adapter-pg) of a connection kind, or carrying a
 *   PostgreSQL SQLSTATE of class 08 (connection), 57P01-57P03 (shut down, crashed, starting or
 *   in recovery) or 53300 (too many connections);
 * - node-pg's own errors when the server went away mid-query, and socket errors.
 */
export function isDatabaseUnavailable(exception: unknown): boolean {
  if (typeof exception !== 'object' || exception === null) return false;
  const err = exception as {
    code?: unknown;
    message?: unknown;
    syscall?: unknown;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
  };
  if (typeof err.code === 'string' && PRISMA_CONNECTION_CODES.has(err.code)) return true;
  const cause = err.meta?.driverAdapterError?.cause;
  if (cause) {
    if (typeof cause.kind === 'string' && ADAPTER_CONNECTION_KINDS.has(cause.kind)) return true;
    if (typeof cause.originalCode === 'string' && isUnavailableSqlState(cause.originalCode))
      return true;
  }
  if (typeof err.code === 'string' && isUnavailableSqlState(err.code)) return true;
  if (typeof err.syscall === 'string' && typeof err.code === 'string')
    return SOCKET_CODES.has(err.code);
  return typeof err.message === 'string' && PG_CONNECTION_MESSAGES.has(err.message);
}

const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
const ADAPTER_CONNECTION_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']);
/** node-pg's texts (no code) for a connection lost under a query or a pool that cannot connect. */
const PG_CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
]);

function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300';
}
