import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  checkItems,
  checkObject,
  ErrorCode,
  FieldProblem,
  orThrow,
  translateError,
  isUuid,
} from '@crm/errors';
import { Paged, paged } from '@crm/envelope';
import { parseSort, skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import type { Prisma } from '../generated/prisma/client';
import { relationType, relationTypesOf } from '../settings/relation-types';
import { domainProblem } from '../settings/settings-text';
import type { RelationValidation, RelationView } from './dto/relation.dto';
import { CreateRelationInput, RelationsQuery } from './dto/relation.input';
import { toRelation } from './relation.mapper';
import { RelationRecord, RelationsRepository } from './relations.repository';
import type { Tx } from '../database/tx';

const SORT_FIELDS = [
  'dateCreated',
  'typeIdentifier',
  'isFavorite',
  'lastname',
  'firstname',
  'id',
] as const;

/** Relations between people (R1, R2, R5, R8); each relation is written with its inverse. */
@Injectable()
export class RelationsService {
  constructor(
    readonly repo: RelationsRepository,
    readonly i18n: I18nService,
  ) {}

  views(ctx: RequestContext, rows: RelationRecord[]): RelationView[] {
    return rows.map((r) => toRelation(r, this.i18n, ctx.language));
  }

  problem(ctx: RequestContext, field: string, rule: string, args: Record<string, string> = {}) {
    return domainProblem(this.i18n, 'relations', ctx.language, field, rule, args);
  }

  /** The person of the path: a malformed, unknown or foreign id is 404. */
  async requirePerson(db: Tx, ctx: RequestContext, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repo.existingPeople(db, ctx.tenantId, [id])).has(id))
      throw AppException.notFound('Person', id);
  }

  async list(
    ctx: RequestContext,
    personId: string,
    query: RelationsQuery,
  ): Promise<Paged<RelationView>> {
    await this.requirePerson(this.repo.client, ctx, personId);
    const sort = parseSort(
      query.sort,
      SORT_FIELDS,
      [
        { field: 'isFavorite', direction: 'desc' },
        { field: 'dateCreated', direction: 'asc' },
      ],
      'id',
    );
    const orderBy = sort.map((s): Prisma.PersonRelationOrderByWithRelationInput =>
      s.field === 'lastname' || s.field === 'firstname'
        ? { to: { [s.field]: { sort: s.direction, nulls: 'last' } } }
        : { [s.field]: s.direction },
    );
    const { skip, take } = skipTake(query);
    const [rows, total] = await this.repo.page(
      ctx.tenantId,
      personId,
      {
        types: query.category ? relationTypesOf(query.category) : undefined,
        q: query.q?.trim() || undefined,
      },
      orderBy,
      skip,
      take,
    );
    return paged(this.views(ctx, rows), total);
  }

  /**
   * Every check of a create, in the order a client fixes them: not to oneself (400), the other
   * people exist in this tenant (404), no relation given twice or existing already (409).
   * Each failure names the item's field, so R5 and R8 can tell which one.
   */
  async checkCreate(
    db: Tx,
    ctx: RequestContext,
    personId: string,
    items: CreateRelationInput[],
    path: (i: number) => string,
  ): Promise<void> {
    const self = items
      .map((it, i) => ({ it, i }))
      .filter(({ it }) => it.personId.toLowerCase() === personId.toLowerCase())
      .map(({ i }) => this.problem(ctx, `${path(i)}personId`, 'selfRelation'));
    if (self.length) throw AppException.validation(self);

    const others = [...new Set(items.map((it) => it.personId))];
    const known = await this.repo.existingPeople(db, ctx.tenantId, others);
    const missing = items.map((it, i) => ({ it, i })).filter(({ it }) => !known.has(it.personId));
    if (missing.length) {
      throw new AppException(
        ErrorCode.NOT_FOUND,
        'errors.notFound.resource',
        { resource: 'Person', id: [...new Set(missing.map((m) => m.it.personId))].join(', ') },
        missing.map(({ it, i }) =>
          this.problem(ctx, `${path(i)}personId`, 'personNotFound', { id: it.personId }),
        ),
      );
    }

    const existing = await this.repo.findTo(db, ctx.tenantId, personId, others);
    const taken = new Set(existing.map((e) => `${e.toPersonId}|${e.typeIdentifier}`));
    const conflicts: FieldProblem[] = [];
    items.forEach((it, i) => {
      const key = `${it.personId}|${it.type.typeIdentifier}`;
      if (taken.has(key))
        conflicts.push(
          this.problem(ctx, `${path(i)}type.typeIdentifier`, 'duplicate', {
            type: it.type.typeIdentifier,
          }),
        );
      taken.add(key);
    });
    if (conflicts.length) {
      throw new AppException(
        ErrorCode.CONFLICT,
        'relations.conflict.exists',
        { type: String(conflicts[0].args?.type) },
        conflicts,
      );
    }
  }

  /** R2 */
  async create(
    ctx: RequestContext,
    personId: string,
    input: CreateRelationInput,
  ): Promise<RelationView> {
    return (await this.insert(ctx, personId, [input], () => ''))[0];
  }

  /** R5: an array of R2 bodies, all or nothing. */
  createMany(ctx: RequestContext, personId: string, raw: unknown): Promise<RelationView[]> {
    const items = orThrow(checkItems(CreateRelationInput, raw));
    return this.insert(ctx, personId, items, (i) => `[${i}].`);
  }

  private insert(
    ctx: RequestContext,
    personId: string,
    items: CreateRelationInput[],
    path: (i: number) => string,
  ): Promise<RelationView[]> {
    return this.repo
      .transaction(async (tx) => {
        await this.requirePerson(tx, ctx, personId);
        await this.checkCreate(tx, ctx, personId, items, path);
        const pairs = items.map((it) => ({
          id: randomUUID(),
          inverseId: randomUUID(),
          from: personId,
          to: it.personId,
          type: it.type.typeIdentifier,
          inverseType: relationType(it.type.typeIdentifier)!.inverse,
          isFavorite: it.type.isFavorite ?? false,
        }));
        await this.repo.createPairs(tx, ctx.tenantId, pairs);
        const rows = await this.repo.findOwn(
          tx,
          ctx.tenantId,
          personId,
          pairs.map((p) => p.id),
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        return this.views(
          ctx,
          pairs.map((p) => byId.get(p.id)!),
        );
      })
      .catch((err: unknown) => this.raceToConflict(err));
  }

  /** Two requests relating the same people at once: the unique index decides, the loser gets 409. */
  raceToConflict(err: unknown): never {
    if ((err as { code?: string })?.code === 'P2002')
      throw AppException.conflictOn('relations', 'concurrent', 'relations.conflict.concurrent');
    throw err;
  }

  /** R8: the checks of R2 without writing; an unknown person of the path is still 404. */
  async validate(ctx: RequestContext, personId: string, raw: unknown): Promise<RelationValidation> {
    await this.requirePerson(this.repo.client, ctx, personId);
    const checked = checkObject(CreateRelationInput, raw);
    let problems = checked.problems;
    if (!problems.length) {
      try {
        await this.checkCreate(this.repo.client, ctx, personId, [checked.value], () => '');
      } catch (err) {
        if (!(err instanceof AppException)) throw err;
        problems = err.problems;
      }
    }
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    return { valid: errors.length === 0, errors };
  }
}
