import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createdStamps } from '@crm/persistence';
import { checkItems, throwIfProblems } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { Prisma } from '../generated/prisma/client';
import type { Company } from './dto/company.output';
import { CreateCompanyInput } from './dto/company.input';
import { CompaniesWriteRepository } from './companies-write.repository';
import { CompaniesRepository } from './companies.repository';
import { CompaniesService } from './companies.service';
import { newCompanyScalars } from './company-changes';
import { CompanyChecks } from './company-checks.service';

/** C8 POST: up to 1000 companies in one transaction; every invalid item is reported by index first. */
@Injectable()
export class CompaniesBatchCreateService {
  constructor(
    private readonly repo: CompaniesRepository,
    private readonly writes: CompaniesWriteRepository,
    private readonly checks: CompanyChecks,
    private readonly companies: CompaniesService,
  ) {}

  async createMany(ctx: RequestContext, raw: unknown): Promise<Company[]> {
    const { value: items, problems } = checkItems(CreateCompanyInput, raw);
    problems.push(
      ...(await this.checks.entryProblems(
        ctx,
        items.map((input, i) => ({ prefix: `[${i}]`, input })),
      )),
    );
    throwIfProblems(problems);

    const { tenantId } = ctx;
    const now = new Date();
    const ids = items.map(() => randomUUID());
    await this.repo.transaction(async (tx) => {
      // Tags given by text are found or created once per text for the whole batch.
      const cache = new Map<string, string>();
      const tags = new Map<string, string[]>();
      await this.checks.preloadTagTexts(
        tx,
        ctx,
        items.flatMap((input) => input.tags ?? []),
        'tags',
        cache,
      );
      for (const [i, input] of items.entries()) {
        if (!input.tags?.length) continue;
        tags.set(ids[i], await this.checks.tagEntryIds(tx, ctx, input.tags, `[${i}].tags`, cache));
      }
      const rows: Prisma.CompanyCreateManyInput[] = items.map((input, i) => {
        const lifecycleId = input.lifecycle?.lifecycleId?.toLowerCase() ?? null;
        return {
          id: ids[i],
          tenantId,
          ...newCompanyScalars(input),
          lifecycleId,
          lifecycleChanged: lifecycleId ? now : null,
          dateCreated: now,
          dateModified: now,
          ...createdStamps(ctx),
        };
      });
      await this.writes.createCompanies(tx, rows);
      await this.writes.addHistories(
        tx,
        rows.flatMap((r) =>
          r.lifecycleId
            ? [{ tenantId, companyId: r.id!, lifecycleId: r.lifecycleId, dateChanged: now }]
            : [],
        ),
      );
      await this.writes.replaceTags(tx, tenantId, tags);
    }, true);

    const byId = new Map(
      (await this.companies.toDtos(ctx, await this.repo.findByIds(tenantId, ids))).map((c) => [
        c.id,
        c,
      ]),
    );
    return ids.map((id) => byId.get(id)!);
  }
}
