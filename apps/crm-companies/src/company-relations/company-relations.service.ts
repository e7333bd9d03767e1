import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, ErrorCode, FieldProblem, isUuid, throwIfProblems } from '@crm/errors';
import { parseSort, skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { CompanyLookup } from '../companies/company-lookup.service';
import type { Prisma } from '../generated/prisma/client';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type {
  CompanyRelationsQuery,
  CreateCompanyRelationInput,
  UpdateCompanyRelationInput,
} from './dto/company-relation.input';
import type { CompanyRelationView } from './dto/company-relation.output';
import { toRelation } from './company-relation.mapper';
import {
  CompanyRelationsRepository,
  RELATION_SORT_FIELDS,
  RelationRecord,
} from './company-relations.repository';
import type { Tx } from '../database/tx';

const problem = (field: string, rule: string, args: FieldProblem['args'] = {}): FieldProblem => ({
  field,
  rule,
  args,
  messageKey: `relations.problems.${rule}`,
});

const toDate = (v: string | null | undefined) => (v == null ? null : new Date(v));
const text = (v: string | null | undefined) => (v == null ? null : v.trim() || null);

/** until must not be before since (either may be open). */
function datesProblem(since: Date | null, until: Date | null): FieldProblem[] {
  return since && until && until < since
    ? [problem('until', 'notBefore', { other: 'since', value: since.toISOString() })]
    : [];
}

/**
 * Relations between two companies of a tenant (C29, C30): one row per relation, written on the
 * company of the path (from) and listed by both (outgoing / incoming). Writes lock the company of
 * the path; the unique index (tenant, from, to, type) settles races between the two sides.
 */
@Injectable()
export class CompanyRelationsService {
  constructor(
    private readonly repo: CompanyRelationsRepository,
    private readonly companies: CompanyLookup,
    private readonly settings: SettingsLookupService,
    private readonly i18n: I18nService,
  ) {}

  private notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('relations.resource.relation', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  private conflict(): AppException {
    return new AppException(ErrorCode.CONFLICT, 'relations.conflict.exists', {}, [
      problem('relationType.id', 'duplicate'),
    ]);
  }

  /** The other company is unknown or of another tenant: 404 naming the field. */
  private relatedNotFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('companies.resource.company', { lang: ctx.language }) as string;
    return new AppException(ErrorCode.NOT_FOUND, 'errors.notFound.resource', { resource, id }, [
      problem('relatedCompanyId', 'companyNotFound', { id }),
    ]);
  }

  /** Prisma's answers to races: P2002 the same relation meanwhile, P2003 a company deleted. */
  private raceTo(ctx: RequestContext, relatedCompanyId?: string) {
    return (err: unknown): never => {
      const code = (err as { code?: string })?.code;
      if (code === 'P2002') throw this.conflict();
      if (code === 'P2003' && relatedCompanyId) throw this.relatedNotFound(ctx, relatedCompanyId);
      throw err;
    };
  }

  private async views(
    ctx: RequestContext,
    companyId: string,
    rows: RelationRecord[],
    db?: Tx,
  ): Promise<CompanyRelationView[]> {
    const types = await this.settings.entries(
      ctx.tenantId,
      'RELATION_TYPES',
      rows.map((r) => r.relationTypeId),
      ctx.language,
      db,
    );
    return rows.map((r) => toRelation(r, companyId, types));
  }

  /** 400 unknownEntry on relationType.id unless it names an entry of relation-types. */
  private async typeProblems(ctx: RequestContext, typeId: string, tx: Tx): Promise<FieldProblem[]> {
    return this.settings
      .requireEntry(ctx.tenantId, 'RELATION_TYPES', typeId, 'relationType.id', ctx.language, tx)
      .then(
        () => [],
        (err: unknown) => {
          if (err instanceof AppException) return err.problems;
          throw err;
        },
      );
  }

  async list(
    ctx: RequestContext,
    path: string,
    query: CompanyRelationsQuery,
  ): Promise<Paged<CompanyRelationView>> {
    const companyId = path.toLowerCase();
    const sort = parseSort(
      query.sort,
      RELATION_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'asc' }],
      'id',
    );
    await this.companies.require(ctx, companyId);
    const orderBy = sort.map((s): Prisma.CompanyRelationOrderByWithRelationInput =>
      s.field === 'since' || s.field === 'until'
        ? { [s.field]: { sort: s.direction, nulls: 'last' } }
        : { [s.field]: s.direction },
    );
    const { skip, take } = skipTake(query);
    const [rows, total] = await this.repo.page(
      ctx.tenantId,
      companyId,
      {
        direction: query.direction,
        relationTypeId: query.relationTypeId,
        q: query.q?.trim() || undefined,
      },
      orderBy,
      skip,
      take,
    );
    return paged(await this.views(ctx, companyId, rows), total);
  }

  /**
   * C29 POST, checks in the order a client fixes them: not to itself, until not before since,
   * a known type (400); the other company is the tenant's (404); not there already (409).
   */
  async create(
    ctx: RequestContext,
    path: string,
    input: CreateCompanyRelationInput,
  ): Promise<CompanyRelationView> {
    // ids compare as text below (self, direction): in the database's lower case
    const companyId = path.toLowerCase();
    const relatedId = input.relatedCompanyId.toLowerCase();
    const columns = {
      relationTypeId: input.relationType.id.toLowerCase(),
      since: toDate(input.since),
      until: toDate(input.until),
      note: text(input.note),
    };
    const problems = [
      ...(relatedId === companyId ? [problem('relatedCompanyId', 'selfRelation')] : []),
      ...datesProblem(columns.since, columns.until),
    ];
    return this.repo
      .transaction(async (tx) => {
        await this.companies.lock(tx, ctx, companyId);
        problems.push(...(await this.typeProblems(ctx, columns.relationTypeId, tx)));
        throwIfProblems(problems);
        if (!(await this.repo.companyName(tx, ctx.tenantId, relatedId))) {
          throw this.relatedNotFound(ctx, input.relatedCompanyId);
        }
        const key = {
          fromCompanyId: companyId,
          toCompanyId: relatedId,
          relationTypeId: columns.relationTypeId,
        };
        if (await this.repo.exists(tx, ctx.tenantId, key)) throw this.conflict();
        const row = await this.repo.create(tx, ctx.tenantId, companyId, relatedId, columns);
        return (await this.views(ctx, companyId, [row], tx))[0];
      })
      .catch(this.raceTo(ctx, input.relatedCompanyId));
  }

  /** C30 PUT: on either side (an incoming relation is the same row); absent fields stay. */
  async update(
    ctx: RequestContext,
    path: string,
    relationId: string,
    input: UpdateCompanyRelationInput,
  ): Promise<CompanyRelationView> {
    const companyId = path.toLowerCase();
    return this.repo
      .transaction(async (tx) => {
        const row = await this.locked(tx, ctx, companyId, relationId);
        const typeId = input.relationType?.id.toLowerCase() ?? row.relationTypeId;
        const since = input.since === undefined ? row.since : toDate(input.since);
        const until = input.until === undefined ? row.until : toDate(input.until);
        throwIfProblems([
          ...(input.relationType ? await this.typeProblems(ctx, typeId, tx) : []),
          ...datesProblem(since, until),
        ]);
        if (
          typeId !== row.relationTypeId &&
          (await this.repo.exists(
            tx,
            ctx.tenantId,
            {
              fromCompanyId: row.fromCompanyId,
              toCompanyId: row.toCompanyId,
              relationTypeId: typeId,
            },
            row.id,
          ))
        ) {
          throw this.conflict();
        }
        await this.repo.update(tx, ctx.tenantId, row.id, {
          ...(input.relationType ? { relationTypeId: typeId } : {}),
          ...(input.since !== undefined ? { since } : {}),
          ...(input.until !== undefined ? { until } : {}),
          ...(input.note !== undefined ? { note: text(input.note) } : {}),
        });
        const saved = (await this.repo.find(tx, ctx.tenantId, companyId, row.id))!;
        return (await this.views(ctx, companyId, [saved], tx))[0];
      })
      .catch(this.raceTo(ctx));
  }

  /** C30 DELETE: from either side; answers the removed relation. */
  remove(ctx: RequestContext, path: string, relationId: string): Promise<CompanyRelationView> {
    const companyId = path.toLowerCase();
    return this.repo.transaction(async (tx) => {
      const row = await this.locked(tx, ctx, companyId, relationId);
      await this.repo.delete(tx, ctx.tenantId, row.id);
      return (await this.views(ctx, companyId, [row], tx))[0];
    });
  }

  /** Locks the company (404 unless the tenant's) and finds the relation on either side of it. */
  private async locked(
    tx: Tx,
    ctx: RequestContext,
    companyId: string,
    relationId: string,
  ): Promise<RelationRecord> {
    await this.companies.lock(tx, ctx, companyId);
    const row = isUuid(relationId)
      ? await this.repo.find(tx, ctx.tenantId, companyId, relationId)
      : null;
    if (!row) throw this.notFound(ctx, relationId);
    return row;
  }
}
