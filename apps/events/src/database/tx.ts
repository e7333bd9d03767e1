import type { Prisma } from '../generated/prisma/client';

/** An interactive transaction of the service's database (what `prisma.$transaction` gives). */
export type Tx = Prisma.TransactionClient;
