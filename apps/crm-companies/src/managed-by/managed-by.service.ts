import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { checkItems, FieldProblem, isUuid, orThrow, throwIfProblems } from '@crm/errors';
import { Paged, paged } from '@crm/envelope';
import { parseSort, skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { CompanyLookup } from '../companies/company-lookup.service';
import type { CompanyManager } from './dto/company-manager.output';
import {
  CompanyManagersQuery,
  CreateCompanyManagerInput,
  MANAGER_SORT_FIELDS,
} from './dto/company-manager.input';
import {
  ManagedByRepository,
  ManagerOrder,
  ManagerRecord,
  NewManager,
} from './managed-by.repository';
import { ManagerChecks, pairKey } from './manager-checks.service';
import type { Tx } from '../database/tx';

export const toDate = (v: string | null | undefined): Date | null => (v ? new Date(v) : null);

/**
 * Managed-by relations of a company: list (M1) and create (M2, M3). Person and manager role are
 * crm-people's: they are confirmed over NATS before the transaction (nothing is held open while
 * asking), the duplicate check runs in the transaction with the company locked.
 */
@Injectable()
export class ManagedByService {
  constructor(
    readonly repo: ManagedByRepository,
    readonly checks: ManagerChecks,
    readonly lookup: CompanyLookup,
  ) {}

  /** M1 */
  async list(
    ctx: RequestContext,
    companyId: string,
    query: CompanyManagersQuery,
  ): Promise<Paged<CompanyManager>> {
    await this.lookup.require(ctx, companyId);
    const sort = parseSort(
      query.sort,
      MANAGER_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'asc' }],
      'id',
    );
    const orderBy = sort.map((s): ManagerOrder =>
      s.field === 'since' || s.field === 'until'
        ? { [s.field]: { sort: s.direction, nulls: 'last' } }
        : { [s.field]: s.direction },
    );
    const { skip, take } = skipTake(query);
    const [items, total] = await this.repo.page(
      ctx.tenantId,
      companyId.toLowerCase(),
      { personId: query.personId, managerRoleId: query.managerRoleId },
      orderBy,
      skip,
      take,
    );
    return paged(items, total);
  }

  /** Company.managedBy of many companies: one query (the resolver batches per request). */
  ofCompanies(ctx: RequestContext, companyIds: readonly string[]): Promise<CompanyManager[][]> {
    return this.repo.ofCompanies(ctx.tenantId, companyIds);
  }

  /** M2 */
  async create(
    ctx: RequestContext,
    companyId: string,
    input: CreateCompanyManagerInput,
  ): Promise<CompanyManager> {
    return (await this.insert(ctx, companyId, [input], () => ''))[0];
  }

  /** M3: an array of M2 bodies (at most 1000), all or nothing; problems name the item. */
  createMany(ctx: RequestContext, companyId: string, raw: unknown): Promise<CompanyManager[]> {
    const items = orThrow(checkItems(CreateCompanyManagerInput, raw));
    return this.insert(ctx, companyId, items, (i) => `[${i}].`);
  }

  private async insert(
    ctx: RequestContext,
    companyId: string,
    items: CreateCompanyManagerInput[],
    path: (i: number) => string,
  ): Promise<CompanyManager[]> {
    await this.lookup.require(ctx, companyId);
    const planned: NewManager[] = items.map((it) => ({
      id: randomUUID(),
      personId: it.personId.toLowerCase(),
      managerRoleId: it.managerRoleId.toLowerCase(),
      since: toDate(it.since),
      until: toDate(it.until),
    }));
    throwIfProblems(planned.flatMap((p, i) => this.checks.periodProblems(p, path(i))));
    const refs = planned.map((p, i) => ({
      personId: p.personId,
      personField: `${path(i)}personId`,
      managerRoleId: p.managerRoleId,
      roleField: `${path(i)}managerRoleId`,
    }));
    await this.checks.confirm(ctx, refs);
    return this.repo
      .transaction(async (tx) => {
        // deleted or merged away since they were confirmed: 404 as if crm-people had said so
        await this.checks.holdPeople(tx, ctx, refs);
        await this.lookup.lock(tx, ctx, companyId);
        const id = companyId.toLowerCase();
        const existing = await this.repo.pairsOf(tx, ctx.tenantId, id, [
          ...new Set(planned.map((p) => p.personId)),
        ]);
        const taken = new Set(existing.map(pairKey));
        const conflicts: FieldProblem[] = [];
        planned.forEach((p, i) => {
          const key = pairKey(p);
          if (taken.has(key)) {
            conflicts.push(
              this.checks.problem(`${path(i)}managerRoleId`, 'duplicate', {
                personId: p.personId,
                managerRoleId: p.managerRoleId,
              }),
            );
          }
          taken.add(key);
        });
        if (conflicts.length) throw this.checks.conflict(conflicts);
        return this.repo.create(tx, ctx.tenantId, id, ctx.integrationName, planned);
      })
      .catch((err: unknown) => this.checks.raceToConflict(err));
  }

  /**
   * The company's relations by id, keyed in lower case; any unknown, foreign or other company's
   * id is a 404 naming its field.
   */
  async requireOwn(
    db: Tx,
    ctx: RequestContext,
    companyId: string,
    ids: string[],
    field: (i: number) => string,
  ): Promise<Map<string, ManagerRecord>> {
    const wanted = [...new Set(ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
    const rows = await this.repo.findOwn(db, ctx.tenantId, companyId.toLowerCase(), wanted);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids
      .map((id, i) => ({ id, field: field(i) }))
      .filter(({ id }) => !byId.has(id.toLowerCase()));
    if (missing.length) throw this.checks.managersNotFound(ctx, missing);
    return byId;
  }
}
