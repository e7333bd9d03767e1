import { AppException, ErrorCode } from '@crm/errors';

interface PrismaKnownError {
  code: string;
  meta?: { target?: unknown; modelName?: string };
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
      throw new AppException(ErrorCode.CONFLICT, 'errors.conflict.exists', { resource, id });
  }
  throw err;
}
