import { PrismaPg } from '@prisma/adapter-pg';

/** The driver adapter every service's generated Prisma client runs on (node-pg pool). */
export function createPgAdapter(connectionString: string, poolSize = 10): PrismaPg {
  return new PrismaPg({ connectionString, max: poolSize });
}
