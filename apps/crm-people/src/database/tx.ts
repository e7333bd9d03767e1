import type { Prisma } from '../generated/prisma/client';

/**
 * The transaction client of crm-people's database: what `prisma.$transaction` hands its callback
 * and repositories take to write in it. It runs in the tenant scope it began in (row-level
 * security, @crm/request-context's tenant-scope).
 */
export type Tx = Prisma.TransactionClient;
