import type { Prisma } from '../generated/prisma/client';

/** A transaction of the service's Prisma client: repositories take it to join the caller's. */
export type Tx = Prisma.TransactionClient;
