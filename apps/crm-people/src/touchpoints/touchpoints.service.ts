import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { I18nService } from 'nestjs-i18n';
import { actorOf } from '@crm/persistence';
import { paged, Paged } from '@crm/envelope';
import { AppException, flattenValidationErrors, translateError, isUuid } from '@crm/errors';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import type { Prisma } from '../generated/prisma/client';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { Touchpoint, TouchpointValidation } from './dto/touchpoint.dto';
import {
  CreateTouchpointInput,
  DEFAULT_PRIORITY,
  MOODS,
  TouchpointInput,
} from './dto/touchpoint.input';
import { TOUCHPOINT_SORT_FIELDS, TouchpointListQuery } from './dto/touchpoint.query';
import { calculate, toTouchpoint } from './touchpoint.mapper';
import { dateOf, TouchpointRules } from './touchpoint.rules';
import { Author, TouchpointFields, TouchpointsRepository } from './touchpoints.repository';
import type { Tx } from '../database/tx';

export const RESOURCE = 'Touchpoint';
export const authorOf = (ctx: RequestContext): Author => actorOf(ctx);

function fieldsOf(input: TouchpointInput): TouchpointFields {
  return {
    type: input.type,
    subject: input.subject,
    description: input.description ?? null,
    start: new Date(input.start),
    end: input.end ? new Date(input.end) : null,
    companyId: input.companyId ?? null,
    priority: input.priority ?? DEFAULT_PRIORITY,
  };
}

/** Touchpoint CRUD and validation (T1-T5, T7); REST and GraphQL both call these. */
@Injectable()
export class TouchpointsService {
  constructor(
    private readonly repo: TouchpointsRepository,
    private readonly rules: TouchpointRules,
    private readonly settings: SettingsLookupService,
    private readonly i18n: I18nService,
  ) {}

  /** A malformed id cannot name a touchpoint: same answer as an unknown one. */
  requireUuid(id: string): void {
    if (!isUuid(id)) throw AppException.notFound(RESOURCE, id);
  }

  async requireExisting(ctx: RequestContext, id: string, db: Tx): Promise<void> {
    this.requireUuid(id);
    if (!(await this.repo.existingIds(ctx.tenantId, [id], db)).has(id))
      throw AppException.notFound(RESOURCE, id);
  }

  async list(ctx: RequestContext, q: TouchpointListQuery): Promise<Paged<Touchpoint>> {
    const from = q.from ? new Date(q.from) : undefined;
    const to = q.to ? new Date(q.to) : undefined;
    if (from && to && to < from)
      throw AppException.validation([this.rules.problem(ctx.language, 'to', 'toBeforeFrom')]);
    const text = q.q?.trim();
    const where: Prisma.TouchpointWhereInput & { tenantId: string } = {
      tenantId: ctx.tenantId,
      ...(q.personId ? { people: { some: { personId: q.personId } } } : {}),
      ...(q.tagId ? { tags: { some: { entryId: q.tagId } } } : {}),
      ...(q.companyId ? { companyId: q.companyId } : {}),
      ...(q.type ? { type: q.type } : {}),
      ...(from || to ? { start: { gte: from, lte: to } } : {}),
      ...(text
        ? {
            OR: [
              { subject: { contains: text, mode: 'insensitive' } },
              { description: { contains: text, mode: 'insensitive' } },
            ],
          }
        : {}),
    };
    // The id breaks ties, so pages never overlap.
    const sort = parseSort(
      q.sort,
      TOUCHPOINT_SORT_FIELDS,
      [{ field: 'start', direction: 'desc' }],
      'id',
    );
    const { skip, take } = skipTake(q);
    const [rows, total] = await this.repo.list(where, toOrderBy(sort), skip, take);
    const now = new Date();
    return paged(
      rows.map((r) => toTouchpoint(r, now)),
      total,
    );
  }

  async get(ctx: RequestContext, id: string): Promise<Touchpoint> {
    const found = await this.find(ctx, id);
    if (!found) throw AppException.notFound(RESOURCE, id);
    return found;
  }

  /** The touchpoint, or null for unknown and malformed ids (GraphQL reads). */
  async find(ctx: RequestContext, id: string): Promise<Touchpoint | null> {
    if (!isUuid(id)) return null;
    const record = await this.repo.findById(ctx.tenantId, id);
    return record ? toTouchpoint(record) : null;
  }

  async create(ctx: RequestContext, input: CreateTouchpointInput): Promise<Touchpoint> {
    await this.rules.assertCompany(ctx, input.companyId);
    const record = await this.repo.transaction(async (tx) => {
      await this.rules.holdCompany(tx, ctx, input.companyId);
      const personIds = await this.rules.assertValid(ctx, input, tx);
      const tags = await this.settings.resolveTags(
        tx,
        ctx.tenantId,
        'ORGA_TAGS',
        input.tags ?? [],
        'tags',
        ctx.language,
      );
      const mood = input.mood
        ? { mood: input.mood.mood, comment: input.mood.comment ?? null }
        : null;
      return this.repo.create(
        tx,
        ctx.tenantId,
        fieldsOf(input),
        personIds,
        tags.map((t) => t.id),
        mood,
        authorOf(ctx),
      );
    });
    return toTouchpoint(record);
  }

  /** PUT: replaces fields, people and tags; the mood history stays. */
  async update(ctx: RequestContext, id: string, input: TouchpointInput): Promise<Touchpoint> {
    this.requireUuid(id);
    const current = await this.repo.findById(ctx.tenantId, id);
    if (!current) throw AppException.notFound(RESOURCE, id);
    await this.rules.assertCompany(ctx, input.companyId, current.companyId);
    const record = await this.repo.transaction(async (tx) => {
      await this.rules.holdCompany(tx, ctx, input.companyId);
      await this.requireExisting(ctx, id, tx);
      const personIds = await this.rules.assertValid(ctx, input, tx);
      const tags = await this.settings.resolveTags(
        tx,
        ctx.tenantId,
        'ORGA_TAGS',
        input.tags ?? [],
        'tags',
        ctx.language,
      );
      return this.repo.replace(
        tx,
        ctx.tenantId,
        id,
        fieldsOf(input),
        personIds,
        tags.map((t) => t.id),
        authorOf(ctx),
      );
    });
    return toTouchpoint(record);
  }

  /** Deletes one touchpoint and answers with what was deleted. */
  async remove(ctx: RequestContext, id: string): Promise<Touchpoint> {
    this.requireUuid(id);
    const record = await this.repo.transaction(async (tx) => {
      const found = await this.repo.findById(ctx.tenantId, id, tx);
      if (!found || !(await this.repo.deleteMany(tx, ctx.tenantId, [id])))
        throw AppException.notFound(RESOURCE, id);
      return found;
    });
    return toTouchpoint(record);
  }

  /**
   * T7: every check of create (class-validator on the body, then the domain checks) without
   * writing; the calculated fields are derived from whatever is usable.
   */
  async validate(ctx: RequestContext, raw: unknown): Promise<TouchpointValidation> {
    const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
    const input = plainToInstance(CreateTouchpointInput, body);
    const problems = flattenValidationErrors(
      validateSync(input, { whitelist: true, forbidNonWhitelisted: true }),
    );
    problems.push(...(await this.rules.check(ctx, input)));
    problems.push(...(await this.rules.companyProblems(ctx, input.companyId)));

    const start = dateOf(input.start);
    const end = dateOf(input.end);
    const mood = input.mood?.mood;
    const calculated = start
      ? calculate({
          start,
          end,
          moods:
            typeof mood === 'string' && (MOODS as readonly string[]).includes(mood)
              ? [{ mood }]
              : [],
          participants: new Set(
            (Array.isArray(input.personIds) ? (input.personIds as unknown[]) : []).filter(isUuid),
          ).size,
        })
      : null;
    const errors = problems.length
      ? translateError(this.i18n, AppException.validation(problems), ctx.language).errors
      : [];
    return { valid: problems.length === 0, errors, calculated };
  }
}
