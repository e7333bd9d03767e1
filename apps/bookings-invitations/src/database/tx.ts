import type { Prisma } from '../generated/prisma/client';

/** A transaction of the service's database, as the repositories' methods take it. */
export type Tx = Prisma.TransactionClient;
