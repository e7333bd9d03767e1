import { AppException } from '@crm/errors';

interface PrismaKnownError {
  code: string;
  meta?: {
    target?: unknown;
    modelName?: string;
    /** A raw query's failure as PostgreSQL reported it (Prisma 6.6+). */
    code?: string;
    /** What the driver adapter reported (Prisma 7 with @prisma/adapter-pg). */
    driverAdapterError?: { cause?: { kind?: string; originalCode?: string } };
  };
}

function isPrismaKnownError(err: unknown): err is PrismaKnownError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as PrismaKnownError).code === 'string' &&
    /^P\d{4}$/.test((err as PrismaKnownError).code)
  );
}

/**
 * Turns Prisma's "record not found" and "unique constraint" errors into the API's 404 / 409;
 * anything else is rethrown untouched (and becomes a logged 500).
 */
export function mapPrismaError(err: unknown, resource: string, id: string): never {
  if (isPrismaKnownError(err)) {
    if (err.code === 'P2025') throw AppException.notFound(resource, id);
    if (err.code === 'P2002')
      throw AppException.conflictOn('id', 'exists', 'errors.conflict.exists', { resource, id });
  }
  throw err;
}

/**
 * Whether a query failed on a unique index: `P2002` from a model query, `P2010` with SQLSTATE
 * 23505 from raw SQL ($queryRaw, $executeRaw). With the driver adapter both carry the adapter's
 * `UniqueConstraintViolation`.
 */
export function isUniqueViolation(err: unknown): boolean {
  if (!isPrismaKnownError(err)) return false;
  if (err.code === 'P2002') return true;
  const cause = err.meta?.driverAdapterError?.cause;
  return (
    err.code === 'P2010' &&
    (err.meta?.code === '23505' ||
      cause?.kind === 'UniqueConstraintViolation' ||
      cause?.originalCode === '23505')
  );
}
