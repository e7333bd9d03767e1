import { Injectable } from '@nestjs/common';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  ErrorCode,
  FieldProblem,
  flattenValidationErrors,
  MessageArgs,
  isUuid,
} from '@crm/errors';
import type { Language } from '@crm/i18n';
import { CompanyExistsReply, CompanyExistsRequest, MessageBus, Subjects } from '@crm/messaging';
import { TombstonesRepository } from '../company-links/tombstones.repository';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { BATCH_MAX, TouchpointInput } from './dto/touchpoint.input';
import { TouchpointsRepository } from './touchpoints.repository';
import type { Tx } from '../database/tx';

/** A Date from a string that passed (or may have failed) @IsISO8601; null when unusable. */
export function dateOf(v: unknown): Date | null {
  if (typeof v !== 'string') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

export interface Scope {
  tenantId: string;
  language: Language;
}

/** The checks create, update and validate share, and the problems of batch bodies. */
@Injectable()
export class TouchpointRules {
  constructor(
    private readonly repo: TouchpointsRepository,
    private readonly settings: SettingsLookupService,
    private readonly i18n: I18nService,
    private readonly bus: MessageBus,
    private readonly tombstones: TombstonesRepository,
  ) {}

  /**
   * The company of a touchpoint must be one of the tenant's companies in crm-companies. Asked
   * over NATS before any transaction opens (a slow answer must not hold one); no answer in time
   * is a 503 naming crm-companies, and nothing is written. `unchanged` skips the question when
   * the touchpoint already points at that company (it was confirmed when it was set).
   */
  async companyProblems(
    scope: Scope,
    companyId: unknown,
    unchanged?: string | null,
  ): Promise<FieldProblem[]> {
    if (!isUuid(companyId) || companyId.toLowerCase() === unchanged?.toLowerCase()) return [];
    const request: CompanyExistsRequest = { tenantId: scope.tenantId, companyId };
    const reply = await this.bus.request<CompanyExistsReply>(
      Subjects.crmCompanies.companyExists,
      request,
    );
    return reply?.exists === true
      ? []
      : [this.problem(scope.language, 'companyId', 'unknownCompany')];
  }

  /** companyProblems as a 400. */
  async assertCompany(scope: Scope, companyId: unknown, unchanged?: string | null): Promise<void> {
    const problems = await this.companyProblems(scope, companyId, unchanged);
    if (problems.length) throw AppException.validation(problems);
  }

  /**
   * The first step of a transaction that writes `companyId` (null: none): holds the company
   * against the consumer of its deletion until the commit, and refuses it as unknown (the 400 of
   * assertCompany) when that consumer has run since it was confirmed. Also when the touchpoint
   * had the company when read: it may have been cleared since.
   */
  async holdCompany(tx: Tx, scope: Scope, companyId: string | null | undefined): Promise<void> {
    if (companyId && (await this.tombstones.companyDeleted(tx, scope.tenantId, companyId))) {
      throw AppException.validation([this.problem(scope.language, 'companyId', 'unknownCompany')]);
    }
  }

  /**
   * A field problem whose rule the shared catalogue lacks: its text comes from this domain's
   * namespace (touchpoints.rules.*) in the caller's language and travels as the fallback text.
   */
  problem(lang: Language, field: string, rule: string, args: MessageArgs = {}): FieldProblem {
    const fallback = this.i18n.t(`touchpoints.rules.${rule}`, {
      lang,
      args: { field, ...args },
    }) as string;
    return { field, rule, args, fallback };
  }

  /** 404 naming every id (by its index) that is not the tenant's. */
  notFoundMany(problems: FieldProblem[]): AppException {
    return new AppException(
      ErrorCode.NOT_FOUND,
      'touchpoints.errors.notFoundMany',
      { count: problems.length },
      problems,
    );
  }

  /** Malformed ids in lists -> 400 naming each by index (`tagIds[2]`). */
  requireIds(lang: Language, lists: Record<string, readonly unknown[]>): void {
    const problems = Object.entries(lists).flatMap(([field, ids]) =>
      ids.flatMap((id, i) => (isUuid(id) ? [] : [this.problem(lang, `${field}[${i}]`, 'isUuid')])),
    );
    if (problems.length) throw AppException.validation(problems);
  }

  /** Ids of `ids` missing from `found`, as problems naming their index. */
  missing(
    lang: Language,
    field: string,
    ids: readonly string[],
    found: Set<string>,
    rule = 'notFound',
    args: MessageArgs = {},
  ): FieldProblem[] {
    return ids.flatMap((id, i) =>
      found.has(id) ? [] : [this.problem(lang, `${field}[${i}]`, rule, args)],
    );
  }

  /** Runs class-validator on one plain object as the validation pipe would; 400 on problems. */
  validateObject<T extends object>(cls: ClassConstructor<T>, raw: unknown, prefix = ''): T {
    const obj = plainToInstance(cls, raw ?? {});
    const problems = flattenValidationErrors(
      validateSync(obj, { whitelist: true, forbidNonWhitelisted: true }),
      prefix,
    );
    if (problems.length) throw AppException.validation(problems);
    return obj;
  }

  /** A top-level array body (T11): 1..1000 items, every invalid item named by index (`[3].id`). */
  validateItems<T extends object>(cls: ClassConstructor<T>, raw: unknown): T[] {
    // These rules have texts in the shared catalogue (validation.*).
    if (!Array.isArray(raw)) throw AppException.invalidField('body', 'isArray');
    if (raw.length < 1) throw AppException.invalidField('body', 'arrayMinSize', { constraint1: 1 });
    if (raw.length > BATCH_MAX)
      throw AppException.invalidField('body', 'arrayMaxSize', { constraint1: BATCH_MAX });
    const items = raw.map((r: unknown) => plainToInstance(cls, r ?? {}));
    const problems = items.flatMap((item, i) =>
      typeof raw[i] === 'object' && raw[i] !== null
        ? flattenValidationErrors(
            validateSync(item, { whitelist: true, forbidNonWhitelisted: true }),
            `[${i}]`,
          )
        : [{ field: `[${i}]`, rule: 'isObject' }],
    );
    if (problems.length) throw AppException.validation(problems);
    return items;
  }

  /**
   * The domain checks of a touchpoint body: end not before start, every person id a person of
   * the tenant, every tag id an orga tag. Tolerates fields class-validator refused (validate
   * reports both). Never writes.
   */
  async check(scope: Scope, input: Partial<TouchpointInput>, db?: Tx): Promise<FieldProblem[]> {
    const lang = scope.language;
    const problems: FieldProblem[] = [];
    const start = dateOf(input.start);
    const end = dateOf(input.end);
    if (start && end && end < start) problems.push(this.problem(lang, 'end', 'endBeforeStart'));

    if (Array.isArray(input.personIds)) {
      const ids: unknown[] = input.personIds;
      ids.forEach((id, i) => {
        if (!isUuid(id)) problems.push(this.problem(lang, `personIds[${i}]`, 'isUuid'));
      });
      const valid = ids.filter(isUuid);
      const known = await this.repo.existingPersonIds(scope.tenantId, valid, db);
      ids.forEach((id, i) => {
        if (isUuid(id) && !known.has(id))
          problems.push(this.problem(lang, `personIds[${i}]`, 'unknownPerson'));
      });
    }

    if (Array.isArray(input.tags)) {
      const tags = input.tags.map((t) => (t && typeof t === 'object' ? t : {}));
      const byId = tags.map((t) => t.id).filter(isUuid);
      const known = byId.length
        ? await this.settings.entries(scope.tenantId, 'ORGA_TAGS', byId, lang, db)
        : new Map();
      tags.forEach((t, i) => {
        if (isUuid(t.id) && !known.has(t.id)) {
          problems.push({
            field: `tags[${i}].id`,
            rule: 'unknownEntry',
            args: { list: this.i18n.t('people.lists.orgaTags', { lang }) as string },
          });
        } else if (!t.id && typeof t.text === 'string' && !t.text.trim()) {
          problems.push({ field: `tags[${i}].text`, rule: 'isNotEmpty' });
        }
      });
    }
    return problems;
  }

  /** `check` that throws 400 with every problem; returns the distinct person ids. */
  async assertValid(scope: Scope, input: TouchpointInput, db: Tx): Promise<string[]> {
    const problems = await this.check(scope, input, db);
    if (problems.length) throw AppException.validation(problems);
    return [...new Set(input.personIds)];
  }
}
