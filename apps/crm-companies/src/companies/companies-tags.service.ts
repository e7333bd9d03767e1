import { Injectable } from '@nestjs/common';
import { modifiedStamps } from '@crm/persistence';
import { checkObject, throwIfProblems } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { CompanyTagsSelectionInput } from './dto/company-batch.input';
import type { Company } from './dto/company.output';
import { CompaniesWriteRepository } from './companies-write.repository';
import { CompaniesRepository } from './companies.repository';
import { CompaniesService } from './companies.service';
import { CompanyChecks } from './company-checks.service';

/** C12 (add) and C13 (remove) tags of the `tags` list to/from selected companies. */
@Injectable()
export class CompaniesTagsService {
  constructor(
    private readonly repo: CompaniesRepository,
    private readonly writes: CompaniesWriteRepository,
    private readonly checks: CompanyChecks,
    private readonly companies: CompaniesService,
  ) {}

  /**
   * All or nothing. Malformed ids and unknown tags are a 400, companies that are not the
   * tenant's a 404, each named by index; pairs that exist stay (add), missing pairs are ignored
   * (remove). Answers with the companies as they are now, in the order given.
   */
  async change(ctx: RequestContext, raw: unknown, action: 'add' | 'remove'): Promise<Company[]> {
    const { value, problems } = checkObject(CompanyTagsSelectionInput, raw);
    throwIfProblems(problems);
    throwIfProblems(
      this.checks.malformedIds(ctx, { companyIds: value.companyIds, tagIds: value.tagIds }),
    );
    const companyIds = [...new Set(value.companyIds.map((id) => id.toLowerCase()))];
    const tagIds = [...new Set(value.tagIds.map((id) => id.toLowerCase()))];
    const { tenantId } = ctx;
    await this.repo.transaction(async (tx) => {
      const locked = await this.writes.lock(tx, tenantId, companyIds);
      const missing = value.companyIds.flatMap((id, i) =>
        locked.has(id.toLowerCase())
          ? []
          : [this.checks.problem(`companyIds[${i}]`, 'unknownCompany', ctx)],
      );
      if (missing.length) throw this.checks.notFoundMany(missing);
      throwIfProblems(
        await this.checks.unknownEntries(
          ctx,
          value.tagIds.map((id, i) => ({ list: 'TAGS' as const, field: `tagIds[${i}]`, id })),
          tx,
        ),
      );
      if (action === 'add') await this.writes.appendTags(tx, tenantId, companyIds, tagIds);
      else await this.writes.removeTags(tx, tenantId, companyIds, tagIds);
      await this.writes.touch(tx, tenantId, companyIds, modifiedStamps(ctx));
    }, true);
    const byId = new Map(
      (await this.companies.toDtos(ctx, await this.repo.findByIds(tenantId, companyIds))).map(
        (c) => [c.id, c],
      ),
    );
    return companyIds.map((id) => byId.get(id)!);
  }
}
