import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { ImportJob, Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** First key of the import jobs' advisory locks (the second is the job id's hash). */
export const IMPORT_LOCK_SPACE = 0x494e56;

/** ImportJob rows (IN14) and the advisory locks that claim them. */
@Injectable()
export class ImportJobsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Import jobs of every tenant queued or running (the operator's metrics). */
  async countUnfinished(): Promise<{ queued: number; running: number }> {
    const rows = await this.prisma.importJob.groupBy({
      by: ['status'],
      where: { status: { in: ['queued', 'running'] } },
      _count: { _all: true },
    });
    const n = (status: string) => rows.find((r) => r.status === status)?._count._all ?? 0;
    return { queued: n('queued'), running: n('running') };
  }

  async create(data: Prisma.ImportJobUncheckedCreateInput): Promise<void> {
    await this.prisma.importJob.create({ data });
  }

  /** The tenant's job without its stored rows (null: none). */
  findView(tenantId: string, id: string): Promise<Omit<ImportJob, 'rows'> | null> {
    return this.prisma.importJob.findFirst({ where: { tenantId, id }, omit: { rows: true } });
  }

  async update(id: string, data: Prisma.ImportJobUncheckedUpdateInput, db: Tx = this.prisma) {
    await db.importJob.update({ where: { id }, data });
  }

  /**
   * Claims one queued or running job and runs `run` on it (marked running first); whether there
   * was one. The claim is the job's advisory lock, taken with a try (like SKIP LOCKED: a replica
   * never waits for another's job) in a transaction that stays open while `run` runs (at most
   * `maxMs`): its connection is the worker's heartbeat; the job's own writes go through other
   * connections, so they are visible while it runs.
   */
  claimOne(maxMs: number, run: (job: ImportJob) => Promise<void>): Promise<boolean> {
    return this.prisma.$transaction(
      async (lockTx) => {
        const candidates = await lockTx.$queryRaw<{ id: string }[]>`
          SELECT id::text FROM "ImportJob" WHERE status IN ('queued', 'running')
           ORDER BY "dateCreated", id LIMIT 20`;
        for (const { id } of candidates) {
          const [{ locked }] = await lockTx.$queryRaw<{ locked: boolean }[]>`
            SELECT pg_try_advisory_xact_lock(${IMPORT_LOCK_SPACE}::int, hashtext(${id})) AS locked`;
          if (!locked) continue;
          // read after the lock: the worker before may have finished it in between
          const job = await this.prisma.importJob.findUnique({ where: { id } });
          if (!job || !['queued', 'running'].includes(job.status)) continue;
          if (job.status === 'queued') {
            await this.prisma.importJob.update({ where: { id }, data: { status: 'running' } });
          }
          await run(job);
          return true;
        }
        return false;
      },
      { timeout: maxMs, maxWait: 30_000 },
    );
  }
}
