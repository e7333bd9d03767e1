import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  BATCH_MAX,
  ErrorCode,
  checkObject,
  isUuid,
  listProblems,
  throwIfProblems,
  translateError,
} from '@crm/errors';
import { parseSort, skipTake, SortField } from '@crm/paging';
import { createdStamps, modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { Prisma } from '../generated/prisma/client';
import {
  EventInput,
  HOLD_MINUTES_DEFAULT,
  WAITING_LIST_OFFER_MINUTES_DEFAULT,
} from './dto/event.input';
import type {
  Event,
  EventNoteOutput,
  EventPage,
  EventsDeleted,
  EventValidationResult,
} from './dto/event.output';
import { EVENT_SORT_FIELDS, EventsQuery } from './dto/event-query.input';
import { EventChecks, problem } from './event-checks.service';
import { addChanged, addDeleted, addDuplicated } from './event-outbox';
import { EventDefaults, EventReferences } from './event-references.service';
import { toEvent } from './event.mapper';
import { publishedEventProblems } from './publication-rules';
import type { Tx } from '../database/tx';
import { EventRecord, EventSortKey, EventsRepository } from './events.repository';
import { EventFilesCleanup } from '../files/event-files-cleanup';

const DEFAULT_SORT: SortField<EventSortKey>[] = [{ field: 'startsAt', direction: 'asc' }];

const date = (v: string | null | undefined) => (v ? new Date(v) : null);
const lower = (v: string | null | undefined) => v?.toLowerCase() ?? null;
/** A JSON column: null is SQL NULL. */
const json = (v: object | null): Prisma.InputJsonValue | typeof Prisma.DbNull =>
  (v as Prisma.InputJsonValue | null) ?? Prisma.DbNull;

/**
 * Events E1-E7, E9, E10: REST controller and GraphQL resolver both call these, so each rule
 * lives here once. Every write runs in one transaction with its outbox message.
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly repo: EventsRepository,
    private readonly checks: EventChecks,
    private readonly references: EventReferences,
    private readonly i18n: I18nService,
    private readonly files: EventFilesCleanup,
  ) {}

  /** E2: a malformed, unknown or foreign id is the same 404. */
  async get(ctx: RequestContext, id: string): Promise<Event> {
    return toEvent(await this.record(ctx, id));
  }

  async record(ctx: RequestContext, id: string, db?: Tx): Promise<EventRecord> {
    const r = isUuid(id) ? await this.repo.findById(ctx.tenantId, id.toLowerCase(), db) : null;
    if (!r) throw this.checks.notFound(ctx, id);
    return r;
  }

  /** Many events by id in one query, in the order asked; unknown ids give null. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<(Event | null)[]> {
    const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const byId = new Map(
      (await this.repo.findByIds(ctx.tenantId, valid)).map((r) => [r.id, toEvent(r)]),
    );
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** E1 */
  async list(ctx: RequestContext, query: EventsQuery): Promise<EventPage> {
    const sort = parseSort<EventSortKey>(query.sort, EVENT_SORT_FIELDS, DEFAULT_SORT, 'id');
    const { skip, take } = skipTake(query);
    const { records, total } = await this.repo.page(
      ctx.tenantId,
      {
        from: date(query.from) ?? undefined,
        to: date(query.to) ?? undefined,
        categoryId: lower(query.categoryId) ?? undefined,
        published: query.published,
        websiteId: lower(query.websiteId) ?? undefined,
        q: query.q?.trim() || undefined,
      },
      sort,
      skip,
      take,
    );
    return { items: records.map(toEvent), totalResults: total };
  }

  /** The columns of a body (E3, E4): PUT replaces, so an absent field is cleared. */
  private async columns(ctx: RequestContext, input: EventInput, db: Tx) {
    let contact = input.contactPerson ?? null;
    const templateId = lower(contact?.templateId);
    if (contact && templateId) {
      const t = await this.repo.template(ctx.tenantId, templateId, db);
      if (t) {
        contact = {
          ...contact,
          salutation: contact.salutation === undefined ? t.salutation : contact.salutation,
          firstname: contact.firstname === undefined ? t.firstname : contact.firstname,
          lastname: contact.lastname === undefined ? t.lastname : contact.lastname,
          position: contact.position === undefined ? t.position : contact.position,
          email: contact.email === undefined ? t.email : contact.email,
          phone: contact.phone === undefined ? t.phone : contact.phone,
        };
      }
    }
    const contactPerson = contact
      ? {
          templateId,
          salutation: contact.salutation ?? null,
          firstname: contact.firstname ?? null,
          lastname: contact.lastname ?? null,
          position: contact.position ?? null,
          email: contact.email ?? null,
          phone: contact.phone ?? null,
        }
      : null;
    const venue = input.venue
      ? {
          name: input.venue.name ?? null,
          street: input.venue.street ?? null,
          zip: input.venue.zip ?? null,
          city: input.venue.city ?? null,
          country: input.venue.country ?? null,
        }
      : null;
    const onlineMeeting = input.onlineMeeting
      ? { platformId: input.onlineMeeting.platformId, url: input.onlineMeeting.url }
      : null;
    return {
      title: input.title,
      subtitle: input.subtitle ?? null,
      description: input.description ?? null,
      startsAt: date(input.startsAt),
      endsAt: date(input.endsAt),
      venue: json(venue),
      onlineMeeting: json(onlineMeeting),
      capacity: input.capacity ?? null,
      categoryId: lower(input.categoryId),
      contributors: (input.contributors ?? []).map((c) => ({
        name: c.name,
        roleId: c.roleId.toLowerCase(),
        personId: lower(c.personId),
      })),
      contactPerson: json(contactPerson),
      bookingFormFieldSetId: lower(input.bookingFormFieldSetId),
      cancellationConditionId: lower(input.cancellationConditionId),
      taxRateId: input.taxRateId ?? null,
      holdMinutes: input.holdMinutes ?? HOLD_MINUTES_DEFAULT,
      waitingListOfferMinutes: input.waitingListOfferMinutes ?? WAITING_LIST_OFFER_MINUTES_DEFAULT,
      paymentDeadlineHours: input.paymentDeadlineHours ?? null,
      paymentReminderHours: input.paymentReminderHours ?? null,
      maxTicketsPerBuyer: input.maxTicketsPerBuyer ?? null,
    };
  }

  /** Fields a new event takes from the tenant's eventDefaults when the body leaves them out. */
  private withDefaults(input: EventInput, d: EventDefaults): EventInput {
    return {
      ...input,
      timeZone: input.timeZone ?? d.timeZone,
      capacity: input.capacity === undefined ? d.capacity : input.capacity,
      categoryId: input.categoryId === undefined ? d.categoryId : input.categoryId,
      bookingFormFieldSetId:
        input.bookingFormFieldSetId === undefined
          ? d.bookingFormFieldSetId
          : input.bookingFormFieldSetId,
      cancellationConditionId:
        input.cancellationConditionId === undefined
          ? d.cancellationConditionId
          : input.cancellationConditionId,
      taxRateId: input.taxRateId === undefined ? d.taxRateId : input.taxRateId,
      contactPerson:
        input.contactPerson === undefined && d.contactPersonTemplateId
          ? { templateId: d.contactPersonTemplateId }
          : input.contactPerson,
    };
  }

  /** E3 (shape checked by the validation pipe; here: dates and references). */
  async create(ctx: RequestContext, given: EventInput): Promise<Event> {
    const input = this.withDefaults(given, await this.references.defaults(ctx));
    throwIfProblems(await this.checks.problems(ctx, input));
    const record = await this.repo.transaction(async (tx) => {
      const { id } = await this.repo.create(tx, {
        tenantId: ctx.tenantId,
        ...(await this.columns(ctx, input, tx)),
        timeZone: input.timeZone!,
        status: input.status ?? 'draft',
        ...createdStamps(ctx),
      });
      await this.repo.replaceTags(
        tx,
        ctx.tenantId,
        id,
        await this.references.tagEntryIds(tx, ctx, input.orgaTags ?? [], input.portalTags ?? []),
      );
      return this.announce(tx, ctx, id);
    });
    return toEvent(record);
  }

  /**
   * E4: PUT replaces every field of the body (absent: cleared), except timeZone and status,
   * which stay when absent. The note, the publication and the websites are not touched.
   * `sequence` grows by one. A published event keeps its dates and its place (409 otherwise:
   * unpublish it first).
   */
  async update(ctx: RequestContext, id: string, input: EventInput): Promise<Event> {
    throwIfProblems(await this.checks.problems(ctx, input));
    const record = await this.repo.transaction(async (tx) => {
      const current = await this.lockOne(tx, ctx, id);
      const columns = await this.columns(ctx, input, tx);
      if (current.published) {
        const problems = publishedEventProblems({
          startsAt: columns.startsAt,
          endsAt: columns.endsAt,
          venue: input.venue ?? null,
          onlineMeeting: input.onlineMeeting ?? null,
        });
        if (problems.length) {
          throw new AppException(
            ErrorCode.CONFLICT,
            'events.errors.publishedNeeds',
            { count: problems.length },
            problems,
          );
        }
      }
      await this.repo.update(tx, ctx.tenantId, current.id, {
        ...columns,
        timeZone: input.timeZone ?? current.timeZone,
        status: input.status ?? current.status,
        sequence: { increment: 1 },
        ...modifiedStamps(ctx),
      });
      await this.repo.replaceTags(
        tx,
        ctx.tenantId,
        current.id,
        await this.references.tagEntryIds(tx, ctx, input.orgaTags ?? [], input.portalTags ?? []),
      );
      return this.announce(tx, ctx, current.id);
    });
    return toEvent(record);
  }

  /** Locks the event until the transaction ends (404 when it is not the tenant's). */
  async lockOne(tx: Tx, ctx: RequestContext, id: string): Promise<EventRecord> {
    const found = isUuid(id)
      ? await this.repo.lock(tx, ctx.tenantId, [id.toLowerCase()])
      : new Set();
    if (!found.size) throw this.checks.notFound(ctx, id);
    return this.record(ctx, id, tx);
  }

  /** Reads the event as written in `tx` and writes its events.events.changed snapshot. */
  async announce(tx: Tx, ctx: RequestContext, id: string): Promise<EventRecord> {
    const r = await this.record(ctx, id, tx);
    await addChanged(tx, r, await this.references.snapshotSettings(ctx.tenantId, r, tx));
    return r;
  }

  /** E5 */
  async delete(ctx: RequestContext, id: string): Promise<EventsDeleted> {
    const deletedIds = await this.repo.transaction(async (tx) => {
      const found = isUuid(id)
        ? await this.repo.lock(tx, ctx.tenantId, [id.toLowerCase()])
        : new Set();
      if (!found.size) throw this.checks.notFound(ctx, id);
      const ids = await this.repo.delete(tx, ctx.tenantId, [id.toLowerCase()]);
      await addDeleted(tx, ctx.tenantId, ids);
      return ids;
    });
    // The file and image rows went by cascade; their bytes go after the commit.
    await this.files.removeEvents(ctx.tenantId, deletedIds);
    return { deletedIds };
  }

  /**
   * E6: all or nothing. Malformed ids are a 400, ids that are not the tenant's events a 404,
   * each named by index (`ids[3]`); then nothing is deleted. One events.events.deleted message.
   */
  async deleteMany(ctx: RequestContext, ids: unknown): Promise<EventsDeleted> {
    const problems = listProblems(ids, 'ids', BATCH_MAX);
    const list = problems.length ? [] : (ids as unknown[]);
    problems.push(...this.checks.malformedIds('ids', list));
    throwIfProblems(problems);
    const given = list as string[];
    const unique = [...new Set(given.map((id) => id.toLowerCase()))];
    const deletedIds = await this.repo.transaction(async (tx) => {
      const locked = await this.repo.lock(tx, ctx.tenantId, unique);
      const missing = given.flatMap((id, i) =>
        locked.has(id.toLowerCase()) ? [] : [problem(`ids[${i}]`, 'unknownEvent')],
      );
      if (missing.length) throw this.checks.notFoundMany(missing);
      const deleted = await this.repo.delete(tx, ctx.tenantId, unique);
      await addDeleted(tx, ctx.tenantId, deleted);
      return deleted;
    });
    await this.files.removeEvents(ctx.tenantId, deletedIds);
    return { deletedIds };
  }

  /** E7: every check of E3 without writing. */
  async validate(ctx: RequestContext, raw: unknown): Promise<EventValidationResult> {
    const { value, problems } = checkObject(EventInput, raw);
    if (!problems.length) problems.push(...(await this.checks.problems(ctx, value)));
    else problems.push(...this.checks.crossFieldProblems(value));
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    return { valid: problems.length === 0, errors };
  }

  /**
   * E9: a copy with a new id and the same title, fields, settings and tags; unpublished, on no
   * website, sequence 0. Files and images are copied by the files code on
   * events.events.duplicated (written here in the same transaction), as are ticket types by
   * bookings-invitations.
   */
  async duplicate(ctx: RequestContext, id: string): Promise<Event> {
    const record = await this.repo.transaction(async (tx) => {
      const s = await this.record(ctx, id, tx);
      const { id: copyId } = await this.repo.create(tx, {
        tenantId: ctx.tenantId,
        title: s.title,
        subtitle: s.subtitle,
        description: s.description,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        timeZone: s.timeZone,
        venue: json(s.venue as object | null),
        onlineMeeting: json(s.onlineMeeting as object | null),
        capacity: s.capacity,
        categoryId: s.categoryId,
        contributors: s.contributors as Prisma.InputJsonValue,
        contactPerson: json(s.contactPerson as object | null),
        bookingFormFieldSetId: s.bookingFormFieldSetId,
        cancellationConditionId: s.cancellationConditionId,
        taxRateId: s.taxRateId,
        holdMinutes: s.holdMinutes,
        waitingListOfferMinutes: s.waitingListOfferMinutes,
        paymentDeadlineHours: s.paymentDeadlineHours,
        paymentReminderHours: s.paymentReminderHours,
        maxTicketsPerBuyer: s.maxTicketsPerBuyer,
        note: s.note,
        status: s.status === 'cancelled' || s.status === 'completed' ? 'draft' : s.status,
        ...createdStamps(ctx),
      });
      await this.repo.replaceTags(
        tx,
        ctx.tenantId,
        copyId,
        s.tags.map((t) => t.entry.id),
      );
      await addDuplicated(tx, ctx.tenantId, s.id, copyId);
      return this.announce(tx, ctx, copyId);
    });
    return toEvent(record);
  }

  /** E10: null clears the note. The note is internal: no calendar change, no sequence. */
  async updateNote(ctx: RequestContext, id: string, note: string | null): Promise<EventNoteOutput> {
    const saved = await this.repo.transaction(async (tx) => {
      const current = await this.lockOne(tx, ctx, id);
      await this.repo.update(tx, ctx.tenantId, current.id, { note, ...modifiedStamps(ctx) });
      return this.record(ctx, current.id, tx);
    });
    return { note: saved.note, dateModified: saved.dateModified.toISOString() };
  }
}
