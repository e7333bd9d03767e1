import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import {
  AppException,
  BATCH_MAX,
  checkObject,
  ErrorCode,
  FieldProblem,
  isUuid,
  listProblems,
  throwIfProblems,
  translateError,
} from '@crm/errors';
import { addOutboxEvent, Subjects, WebsiteMigratedEvent } from '@crm/messaging';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import { createdStamps, modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import type { Prisma, Website as WebsiteRow } from '../generated/prisma/client';
import {
  CreateWebsiteInput,
  MigrateWebsiteInput,
  UpdateWebsiteInput,
  WebsiteQuery,
} from './dto/website.input';
import type {
  Website,
  WebsiteMigrated,
  WebsiteValidationResult,
  WebsitesDeleted,
} from './dto/website.output';
import { EventsChangedNotifier } from '../event-settings/events-changed';
import { invitationLinkRule } from './invitation-link';
import { configColumn, toWebsite, toWebsiteConfig } from './website.mapper';
import { parseWebsiteUrl } from './website-url';
import type { Tx } from '../database/tx';
import { WEBSITE_SORT_FIELDS, WebsitesRepository } from './websites.repository';
import { WebsiteFilesCleanup } from './website-files-cleanup';

const text = (v: string | null | undefined) => (v == null ? null : v.trim() || null);

/**
 * Websites (event portals) W1-W7, W11-W13. The url's normalised key is unique across all tenants
 * (the unique index decides a race); a clash answers the same 409 whoever holds the url, so it
 * tells nothing about another tenant. A published website stays publishable: an update that
 * breaks a publication rule is a 409 like publishing an invalid one.
 */
@Injectable()
export class WebsitesService {
  constructor(
    private readonly repo: WebsitesRepository,
    private readonly i18n: I18nService,
    private readonly files: WebsiteFilesCleanup,
    private readonly eventsChanged: EventsChangedNotifier,
  ) {}

  notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('websites.resource.website', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  private urlTaken(): AppException {
    return new AppException(ErrorCode.CONFLICT, 'websites.conflict.url', {}, [
      { field: 'url', rule: 'unique', messageKey: 'websites.problems.unique' },
    ]);
  }

  /** A P2002 on urlKey (two creates of one url at once): the same 409 as the check before. */
  private raceToConflict = (err: unknown): never => {
    if ((err as { code?: string })?.code === 'P2002') throw this.urlTaken();
    throw err;
  };

  /**
   * What the decorators cannot say: a name of blanks only is empty (class-validator's isNotEmpty
   * lets it through), and the portal has one text per language.
   */
  private inputProblems(input: {
    name?: unknown;
    config?: { texts?: { language?: unknown }[] | null } | null;
  }): FieldProblem[] {
    const problems: FieldProblem[] = [];
    if (typeof input.name === 'string' && !input.name.trim())
      problems.push({ field: 'name', rule: 'isNotEmpty' });
    const seen = new Set<unknown>();
    (Array.isArray(input.config?.texts) ? input.config.texts : []).forEach((t, i) => {
      if (seen.has(t?.language)) {
        problems.push({
          field: `config.texts[${i}].language`,
          rule: 'uniqueLanguage',
          messageKey: 'websites.problems.uniqueLanguage',
        });
      }
      seen.add(t?.language);
    });
    return problems;
  }

  /** The url's key, or the problem with it. */
  private urlProblems(url: string | undefined): { key: string | null; problems: FieldProblem[] } {
    if (typeof url !== 'string') return { key: null, problems: [] };
    const parsed = parseWebsiteUrl(url);
    if (!parsed) return { key: null, problems: [{ field: 'url', rule: 'isUrl' }] };
    if (parsed.hasQueryOrFragment) {
      return {
        key: null,
        problems: [{ field: 'url', rule: 'urlQuery', messageKey: 'websites.problems.urlQuery' }],
      };
    }
    return { key: parsed.key, problems: [] };
  }

  /** The invitation link template (trimmed; empty: none) against the website's url. */
  private linkProblems(url: string | undefined, template: string | null): FieldProblem[] {
    if (template === null || typeof url !== 'string' || !parseWebsiteUrl(url)) return [];
    const rule = invitationLinkRule(url, template);
    return rule
      ? [
          {
            field: 'invitationLinkTemplate',
            rule,
            // the placeholders' names, shown as they are written
            args: { token: '{token}', websiteUrl: '{websiteUrl}' },
            messageKey: `websites.problems.${rule}`,
          },
        ]
      : [];
  }

  /**
   * The events on `websiteIds` (or among `eventIds`) are announced again (events.events.changed,
   * in `tx`): bookings-invitations keeps each website's invitation link with its copy of them.
   */
  private async announceEvents(
    tx: Tx,
    tenantId: string,
    of: { websiteIds?: string[]; eventIds?: string[] },
  ): Promise<void> {
    await this.eventsChanged.changed(tx, tenantId, await this.repo.touchEvents(tx, tenantId, of));
  }

  /** W1 */
  async list(ctx: RequestContext, query: WebsiteQuery): Promise<Paged<Website>> {
    const sort = parseSort(
      query.sort,
      WEBSITE_SORT_FIELDS,
      [{ field: 'name', direction: 'asc' }],
      'id',
    );
    const [rows, total] = await this.repo.page(ctx.tenantId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
      q: query.q?.trim() || undefined,
      published: query.published,
    });
    return paged(rows.map(toWebsite), total);
  }

  /** W2 */
  async get(ctx: RequestContext, id: string): Promise<Website> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id) : null;
    if (!row) throw this.notFound(ctx, id);
    return toWebsite(row);
  }

  /** GraphQL references: one query for all ids, null for unknown ones. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<(Website | null)[]> {
    const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const rows = valid.length ? await this.repo.findMany(ctx.tenantId, valid) : [];
    const byId = new Map(rows.map((r) => [r.id, toWebsite(r)]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** W3 */
  async create(ctx: RequestContext, input: CreateWebsiteInput): Promise<Website> {
    const { key, problems } = this.urlProblems(input.url);
    const template = text(input.invitationLinkTemplate);
    throwIfProblems([
      ...this.inputProblems(input),
      ...problems,
      ...this.linkProblems(input.url, template),
    ]);
    if (await this.repo.urlKeyTaken(key!)) throw this.urlTaken();
    const row = await this.repo
      .transaction((tx) =>
        this.repo.create(tx, ctx.tenantId, {
          name: input.name.trim(),
          url: input.url.trim(),
          urlKey: key!,
          description: text(input.description),
          language: input.language ?? null,
          config: configColumn(input.config) as unknown as Prisma.InputJsonValue,
          invitationLinkTemplate: template,
          ...createdStamps(ctx),
        }),
      )
      .catch(this.raceToConflict);
    return toWebsite(row);
  }

  /** W4: fields not given stay; a published website must stay publishable (409 otherwise). */
  async update(ctx: RequestContext, id: string, input: UpdateWebsiteInput): Promise<Website> {
    const { key, problems } = this.urlProblems(input.url);
    throwIfProblems([...this.inputProblems(input), ...problems]);
    if (key && (await this.repo.urlKeyTaken(key, id.toLowerCase()))) throw this.urlTaken();
    const row = await this.repo
      .transaction(async (tx) => {
        const current = await this.locked(tx, ctx, id);
        const template =
          input.invitationLinkTemplate !== undefined
            ? text(input.invitationLinkTemplate)
            : current.invitationLinkTemplate;
        throwIfProblems(this.linkProblems(input.url ?? current.url, template));
        const next = await this.repo.update(tx, current.id, {
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.url !== undefined ? { url: input.url.trim(), urlKey: key! } : {}),
          ...(input.description !== undefined ? { description: text(input.description) } : {}),
          ...(input.language !== undefined ? { language: input.language } : {}),
          ...(input.config !== undefined
            ? { config: configColumn(input.config) as unknown as Prisma.InputJsonValue }
            : {}),
          ...(input.invitationLinkTemplate !== undefined
            ? { invitationLinkTemplate: template }
            : {}),
          ...modifiedStamps(ctx),
        });
        if (
          next.url !== current.url ||
          next.invitationLinkTemplate !== current.invitationLinkTemplate
        ) {
          await this.announceEvents(tx, ctx.tenantId, { websiteIds: [current.id] });
        }
        if (next.published) {
          const blockers = await this.publicationProblems(ctx.tenantId, next);
          if (blockers.length) throw this.unpublishable(blockers);
        }
        return next;
      })
      .catch(this.raceToConflict);
    return toWebsite(row);
  }

  /** W5 */
  async remove(ctx: RequestContext, id: string): Promise<WebsitesDeleted> {
    const deletedIds = await this.repo.transaction(async (tx) => {
      const row = await this.locked(tx, ctx, id);
      const eventIds = await this.repo.touchEvents(tx, ctx.tenantId, { websiteIds: [row.id] });
      await this.repo.deleteMany(tx, ctx.tenantId, [row.id]);
      // after the delete: the snapshots no longer name the website
      await this.eventsChanged.changed(tx, ctx.tenantId, eventIds);
      return [row.id];
    });
    await this.files.removeWebsites(ctx.tenantId, deletedIds);
    return { deletedIds };
  }

  /** W6: all or nothing; malformed ids 400, unknown ones 404, each named by index. */
  async removeMany(ctx: RequestContext, ids: unknown): Promise<WebsitesDeleted> {
    const problems = listProblems(ids, 'ids', BATCH_MAX);
    const given = problems.length ? [] : (ids as unknown[]);
    given.forEach((v, i) => {
      if (!isUuid(v)) problems.push({ field: `ids[${i}]`, rule: 'isUuid' });
    });
    throwIfProblems(problems);
    const list = (given as string[]).map((v) => v.toLowerCase());
    const unique = [...new Set(list)];
    const deletedIds = await this.repo.transaction(async (tx) => {
      const found = await this.repo.lock(tx, ctx.tenantId, unique);
      const missing: FieldProblem[] = list.flatMap((v, i) =>
        found.has(v)
          ? []
          : [
              {
                field: `ids[${i}]`,
                rule: 'unknownWebsite',
                messageKey: 'websites.problems.unknownWebsite',
              },
            ],
      );
      if (missing.length) {
        throw new AppException(
          ErrorCode.NOT_FOUND,
          'websites.notFoundMany',
          { count: missing.length },
          missing,
        );
      }
      const eventIds = await this.repo.touchEvents(tx, ctx.tenantId, { websiteIds: unique });
      await this.repo.deleteMany(tx, ctx.tenantId, unique);
      await this.eventsChanged.changed(tx, ctx.tenantId, eventIds);
      return unique;
    });
    await this.files.removeWebsites(ctx.tenantId, deletedIds);
    return { deletedIds };
  }

  /** W7: every check of a create, nothing written (a url taken is `url`/`unique`). */
  async validate(ctx: RequestContext, raw: unknown): Promise<WebsiteValidationResult> {
    const { value, problems } = checkObject(CreateWebsiteInput, raw);
    const extra = this.inputProblems(value).filter(
      (p) => !problems.some((q) => q.field === p.field),
    );
    problems.push(...extra);
    if (!problems.some((p) => p.field === 'url')) {
      const url = this.urlProblems(value.url);
      problems.push(...url.problems);
      if (!problems.some((p) => p.field === 'invitationLinkTemplate')) {
        problems.push(...this.linkProblems(value.url, text(value.invitationLinkTemplate)));
      }
      if (url.key && (await this.repo.urlKeyTaken(url.key)))
        problems.push(...this.urlTaken().problems);
    }
    return this.result(ctx, problems);
  }

  /** W11: every event moves to the target in one transaction, announced through the outbox. */
  async migrate(
    ctx: RequestContext,
    id: string,
    input: MigrateWebsiteInput,
  ): Promise<WebsiteMigrated> {
    const source = id.toLowerCase();
    const target = input.targetWebsiteId.toLowerCase();
    if (!isUuid(source)) throw this.notFound(ctx, id);
    if (source === target) {
      throw AppException.validation([
        {
          field: 'targetWebsiteId',
          rule: 'sameWebsite',
          messageKey: 'websites.problems.sameWebsite',
        },
      ]);
    }
    return this.repo.transaction(async (tx) => {
      const found = await this.repo.lock(tx, ctx.tenantId, [source, target]);
      if (!found.has(source)) throw this.notFound(ctx, id);
      if (!found.has(target)) throw this.notFound(ctx, input.targetWebsiteId);
      const { eventIds, alreadyOnTarget } = await this.repo.moveEvents(
        tx,
        ctx.tenantId,
        source,
        target,
      );
      // The source is kept (its images, config and name may be reused) but no longer public.
      await this.repo.update(tx, source, {
        published: false,
        publishedAt: null,
        ...modifiedStamps(ctx),
      });
      // their snapshots now name the target, and its invitation link
      await this.announceEvents(tx, ctx.tenantId, { eventIds });
      const payload: WebsiteMigratedEvent = {
        tenantId: ctx.tenantId,
        websiteId: source,
        targetWebsiteId: target,
        eventIds,
      };
      await addOutboxEvent(tx, {
        tenantId: ctx.tenantId,
        subject: Subjects.events.websiteMigrated,
        payload,
      });
      return {
        websiteId: source,
        targetWebsiteId: target,
        movedEvents: eventIds.length,
        alreadyOnTarget,
      };
    });
  }

  /** W12: publishing runs the W13 checks (409 listing them); unpublishing always works. */
  async setPublication(ctx: RequestContext, id: string, published: boolean): Promise<Website> {
    const row = await this.repo.transaction(async (tx) => {
      const current = await this.locked(tx, ctx, id);
      if (published) {
        const problems = await this.publicationProblems(ctx.tenantId, current);
        if (problems.length) throw this.unpublishable(problems);
      }
      if (current.published === published) return current;
      return this.repo.update(tx, current.id, {
        published,
        publishedAt: published ? new Date() : null,
        ...modifiedStamps(ctx),
      });
    });
    return toWebsite(row);
  }

  /** W13 */
  async validatePublication(ctx: RequestContext, id: string): Promise<WebsiteValidationResult> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id) : null;
    if (!row) throw this.notFound(ctx, id);
    return this.result(ctx, await this.publicationProblems(ctx.tenantId, row));
  }

  /** Every piece a public portal needs: name, url, language, legal links, a text, its logo. */
  private async publicationProblems(tenantId: string, row: WebsiteRow): Promise<FieldProblem[]> {
    const config = toWebsiteConfig(row.config);
    const missing = (field: string): FieldProblem => ({
      field,
      rule: 'requiredToPublish',
      messageKey: 'websites.problems.requiredToPublish',
    });
    const problems: FieldProblem[] = [];
    if (!row.name.trim()) problems.push(missing('name'));
    const url = parseWebsiteUrl(row.url);
    if (!url || url.hasQueryOrFragment) problems.push(missing('url'));
    if (!row.language) problems.push(missing('language'));
    if (!config.imprintUrl) problems.push(missing('config.imprintUrl'));
    if (!config.privacyUrl) problems.push(missing('config.privacyUrl'));
    if (row.language && !config.texts.some((t) => t.language === row.language)) {
      problems.push({
        field: 'config.texts',
        rule: 'textInLanguage',
        args: { language: row.language },
        messageKey: 'websites.problems.textInLanguage',
      });
    }
    if (
      config.logoImageId &&
      !(await this.repo.imageExists(tenantId, row.id, config.logoImageId))
    ) {
      problems.push({
        field: 'config.logoImageId',
        rule: 'unknownImage',
        messageKey: 'websites.problems.unknownImage',
      });
    }
    return problems;
  }

  private unpublishable(problems: FieldProblem[]): AppException {
    return new AppException(
      ErrorCode.CONFLICT,
      'websites.publication.invalid',
      { count: problems.length },
      problems,
    );
  }

  private result(ctx: RequestContext, problems: FieldProblem[]): WebsiteValidationResult {
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    return { valid: problems.length === 0, errors };
  }

  /** Locks the tenant's website; 404 otherwise (also for a malformed id). */
  private async locked(tx: Tx, ctx: RequestContext, id: string): Promise<WebsiteRow> {
    const lower = id.toLowerCase();
    if (!isUuid(lower) || !(await this.repo.lock(tx, ctx.tenantId, [lower])).has(lower)) {
      throw this.notFound(ctx, id);
    }
    return (await this.repo.find(ctx.tenantId, lower, tx))!;
  }
}
