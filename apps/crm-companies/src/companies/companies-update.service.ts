import { Injectable } from '@nestjs/common';
import { modifiedStamps } from '@crm/persistence';
import { checkItems, checkObject, fieldPath, isUuid, throwIfProblems } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { Prisma } from '../generated/prisma/client';
import { UpdateCompanyItemInput } from './dto/company-batch.input';
import { UpdateCompanyLifecycleInput } from './dto/company-note.input';
import type { Company } from './dto/company.output';
import { CompanyTagInput, TAGS_MAX, UpdateCompanyInput } from './dto/company.input';
import { CompaniesWriteRepository, HistoryRow } from './companies-write.repository';
import { CompaniesRepository } from './companies.repository';
import { CompaniesService } from './companies.service';
import { companyChanges } from './company-changes';
import { CompanyChecks } from './company-checks.service';
import { CompanyLookup } from './company-lookup.service';

interface UpdateItem {
  id: string;
  input: UpdateCompanyInput;
  /** Where the item's fields are reported: `` for one company, `[3]` in a batch. */
  prefix: string;
}

/**
 * Updates of companies: C5 (one), C8 PUT (batch), C10 (tags), C11 (lifecycle). All of them are
 * the same write: absent fields stay, null clears, a lifecycle change is appended to the history
 * (the same lifecycle again writes nothing), modifiedBy records the caller.
 */
@Injectable()
export class CompaniesUpdateService {
  constructor(
    private readonly repo: CompaniesRepository,
    private readonly writes: CompaniesWriteRepository,
    private readonly checks: CompanyChecks,
    private readonly companies: CompaniesService,
    private readonly lookup: CompanyLookup,
  ) {}

  /** 404 before any body check: a foreign id tells nothing about the body. */
  private requireId(ctx: RequestContext, id: string): string {
    if (!isUuid(id)) throw this.lookup.notFound(ctx, id);
    return id.toLowerCase();
  }

  /** C5 */
  async update(ctx: RequestContext, id: string, input: UpdateCompanyInput): Promise<Company> {
    const key = this.requireId(ctx, id);
    throwIfProblems(await this.checks.entryProblems(ctx, [{ prefix: '', input }]));
    return (await this.apply(ctx, [{ id: key, input, prefix: '' }], false))[0];
  }

  /**
   * C8 PUT: all or nothing. Every invalid item is reported by index (400) before anything is
   * written; ids that are not the tenant's companies are a 404 naming each by index.
   */
  async updateMany(ctx: RequestContext, raw: unknown): Promise<Company[]> {
    const { value: items, problems } = checkItems(UpdateCompanyItemInput, raw);
    const seen = new Set<string>();
    items.forEach((it, i) => {
      if (!isUuid(it.id)) return;
      const id = it.id.toLowerCase();
      if (seen.has(id)) problems.push(this.checks.problem(`[${i}].id`, 'duplicateId', ctx));
      seen.add(id);
    });
    problems.push(
      ...(await this.checks.entryProblems(
        ctx,
        items.map((input, i) => ({ prefix: `[${i}]`, input })),
      )),
    );
    throwIfProblems(problems);
    const unknown = await this.checks.unknownCompanies(
      ctx,
      items.map((it, i) => ({ field: `[${i}].id`, id: it.id })),
    );
    if (unknown.length) throw this.checks.notFoundMany(unknown);
    return this.apply(
      ctx,
      items.map((it, i) => {
        const { id, ...input } = it;
        return { id: id.toLowerCase(), input, prefix: `[${i}]` };
      }),
      true,
    );
  }

  /** C10: the body is the whole new list of tags (by id or by text); [] clears it. */
  async replaceTags(ctx: RequestContext, id: string, raw: unknown): Promise<Company> {
    const key = this.requireId(ctx, id);
    const { value: tags, problems } = checkItems(CompanyTagInput, raw, TAGS_MAX, 0);
    problems.push(
      ...(await this.checks.unknownEntries(
        ctx,
        CompanyChecks.tagRefs(tags, (i) => `[${i}].id`),
      )),
    );
    throwIfProblems(problems);
    return (await this.apply(ctx, [{ id: key, input: { tags }, prefix: '' }], false))[0];
  }

  /** C11: a new lifecycle is appended to the history; the current one again writes nothing. */
  async updateLifecycle(ctx: RequestContext, id: string, lifecycleId: unknown): Promise<Company> {
    const key = this.requireId(ctx, id);
    const { value, problems } = checkObject(UpdateCompanyLifecycleInput, { lifecycleId });
    throwIfProblems(problems);
    if (value.lifecycleId) {
      throwIfProblems(
        await this.checks.unknownEntries(ctx, [
          { list: 'LIFECYCLES', field: 'lifecycleId', id: value.lifecycleId },
        ]),
      );
    }
    const input: UpdateCompanyInput = {
      lifecycle: { lifecycleId: value.lifecycleId?.toLowerCase() ?? null },
    };
    return (await this.apply(ctx, [{ id: key, input, prefix: '' }], false))[0];
  }

  /** Writes checked updates in one transaction, then reads the companies back in one query. */
  private async apply(
    ctx: RequestContext,
    items: UpdateItem[],
    batch: boolean,
  ): Promise<Company[]> {
    const { tenantId } = ctx;
    const ids = items.map((i) => i.id);
    await this.repo.transaction(async (tx) => {
      const current = await this.writes.lock(tx, tenantId, ids);
      const missing = items.filter((i) => !current.has(i.id));
      if (missing.length && !batch) throw this.lookup.notFound(ctx, items[0].id);
      if (missing.length) {
        // Deleted since the check, in another transaction: still reported by index.
        throw this.checks.notFoundMany(
          missing.map((m) => this.checks.problem(fieldPath(m.prefix, 'id'), 'unknownCompany', ctx)),
        );
      }
      const now = new Date();
      const histories: HistoryRow[] = [];
      const tags = new Map<string, string[]>();
      const cache = new Map<string, string>();
      await this.checks.preloadTagTexts(
        tx,
        ctx,
        items.flatMap((item) => item.input.tags ?? []),
        'tags',
        cache,
      );
      for (const item of items) {
        const c = companyChanges(item.input);
        const data: Prisma.CompanyUncheckedUpdateManyInput = { ...c.scalars };
        const lifecycleId = c.lifecycleId?.toLowerCase() ?? c.lifecycleId;
        if (lifecycleId !== undefined && lifecycleId !== current.get(item.id)) {
          data.lifecycleId = lifecycleId;
          data.lifecycleChanged = lifecycleId ? now : null;
          if (lifecycleId)
            histories.push({ tenantId, companyId: item.id, lifecycleId, dateChanged: now });
        }
        if (c.tags) {
          const field = fieldPath(item.prefix, 'tags');
          tags.set(item.id, await this.checks.tagEntryIds(tx, ctx, c.tags, field, cache));
        }
        // Nothing to change (an empty body, the same lifecycle again): the company stays as it is.
        if (Object.keys(data).length === 0 && !c.tags) continue;
        await this.writes.update(tx, tenantId, item.id, {
          ...data,
          ...modifiedStamps(ctx),
        });
      }
      await this.writes.addHistories(tx, histories);
      await this.writes.replaceTags(tx, tenantId, tags);
    }, batch);
    const byId = new Map(
      (await this.companies.toDtos(ctx, await this.repo.findByIds(tenantId, ids))).map((c) => [
        c.id,
        c,
      ]),
    );
    return ids.map((id) => byId.get(id)!);
  }
}
