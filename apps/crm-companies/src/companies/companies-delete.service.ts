import { Inject, Injectable, Logger } from '@nestjs/common';
import { BATCH_MAX, listProblems, throwIfProblems } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { companyFilesPrefix } from '../files/files.storage';
import type { CompaniesDeleted } from './dto/company-results.output';
import { CompaniesWriteRepository } from './companies-write.repository';
import { CompaniesRepository } from './companies.repository';
import { CompanyChecks } from './company-checks.service';
import { CompanyLookup } from './company-lookup.service';

const FILE_REMOVALS_AT_ONCE = 20;

/**
 * C6, C7: companies are deleted with everything that hangs on them, and a CompaniesDeletedEvent
 * is written to the outbox in the same transaction (crm-people disconnects the business cards
 * pointing at them when the relay publishes it). Stored files (logo, documents) are not rows:
 * they are removed after the commit.
 */
@Injectable()
export class CompaniesDeleteService {
  private readonly logger = new Logger(CompaniesDeleteService.name);

  constructor(
    private readonly repo: CompaniesRepository,
    private readonly writes: CompaniesWriteRepository,
    private readonly checks: CompanyChecks,
    private readonly lookup: CompanyLookup,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** C6 */
  async delete(ctx: RequestContext, id: string): Promise<CompaniesDeleted> {
    const deletedIds = await this.repo.transaction(async (tx) => {
      await this.lookup.lock(tx, ctx, id);
      return this.writes.deleteWithEvent(tx, ctx.tenantId, [id.toLowerCase()]);
    });
    await this.removeFiles(ctx.tenantId, deletedIds);
    return { deletedIds };
  }

  /**
   * C7: all or nothing. Malformed ids are a 400, ids that are not the tenant's companies a 404,
   * each named by index (`ids[3]`); then nothing is deleted.
   */
  async deleteMany(ctx: RequestContext, ids: unknown): Promise<CompaniesDeleted> {
    const problems = listProblems(ids, 'ids', BATCH_MAX);
    const list = problems.length ? [] : (ids as unknown[]);
    problems.push(...this.checks.malformedIds(ctx, { ids: list }));
    throwIfProblems(problems);
    const given = list as string[];
    // The same id twice names one company: deleting it once does what was asked.
    const unique = [...new Set(given.map((id) => id.toLowerCase()))];
    const deletedIds = await this.repo.transaction(async (tx) => {
      const locked = await this.writes.lock(tx, ctx.tenantId, unique);
      const missing = given.flatMap((id, i) =>
        locked.has(id.toLowerCase())
          ? []
          : [this.checks.problem(`ids[${i}]`, 'unknownCompany', ctx)],
      );
      if (missing.length) throw this.checks.notFoundMany(missing);
      return this.writes.deleteWithEvent(tx, ctx.tenantId, unique);
    }, true);
    await this.removeFiles(ctx.tenantId, deletedIds);
    return { deletedIds };
  }

  /**
   * After the commit: a failure leaves orphaned bytes under a prefix nobody can reach any more
   * (logged), never a company without its files, so the delete still succeeds.
   */
  private async removeFiles(tenantId: string, companyIds: string[]) {
    // A few at a time: a batch of 1000 must not open 1000 directory walks at once.
    for (let i = 0; i < companyIds.length; i += FILE_REMOVALS_AT_ONCE) {
      const chunk = companyIds.slice(i, i + FILE_REMOVALS_AT_ONCE);
      const results = await Promise.allSettled(
        chunk.map((id) => this.storage.deletePrefix(companyFilesPrefix(tenantId, id))),
      );
      results.forEach((r, j) => {
        if (r.status === 'rejected') {
          const reason = r.reason instanceof Error ? r.reason.message : String(r.reason);
          this.logger.warn(`files of company ${chunk[j]} not removed: ${reason}`);
        }
      });
    }
  }
}
