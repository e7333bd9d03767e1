import { Injectable } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import type { Tx } from './tx';

/**
 * Opens a transaction for a service whose steps span several tables' repositories (each method
 * takes the `tx`); Prisma's default options, as `PrismaClient.$transaction(fn)`.
 */
@Injectable()
export class Transactions {
  constructor(private readonly prisma: PrismaService) {}

  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }
}
