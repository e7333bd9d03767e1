import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { randomBytes, randomUUID } from 'node:crypto';
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
import { addOutboxEvent, InvitationRespondedEvent, Subjects } from '@crm/messaging';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import { createdStamps, modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';
import { TombstonesRepository } from '../cross-service/tombstones.repository';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { EventLookup } from '../event-copies/event-lookup.service';
import { isUniqueViolation } from '@crm/persistence';
import {
  CreateInvitationInput,
  InvitationListQuery,
  InvitationStatus,
} from './dto/invitation.input';
import type {
  Invitation,
  InvitationsDeleted,
  InvitationValidation,
  PublicInvitation,
} from './dto/invitation.output';
import { exportHeaders, exportLocale } from '../common/export-locale';
import { EXPORT_COLUMNS, ExportStyle } from './invitation-export';
import { linkTemplateOf } from './invitation-mail-text';
import { toInvitation, toPublicInvitation } from './invitation.mapper';
import {
  INVITATION_SORT_FIELDS,
  InvitationRow,
  InvitationsRepository,
} from './invitations.repository';
import { PeopleContacts } from './people-contacts';
import { InvitationBookings } from './invitation-bookings';
import type { Tx } from '../database/tx';

/** Largest information data of an invitee (IN12), as JSON text in UTF-8. */
export const INFORMATION_MAX_BYTES = 16 * 1024;

/** 128 random bits, base64url: unguessable, and short enough for a link. */
export const newToken = () => randomBytes(16).toString('base64url');

export const problem = (
  field: string,
  rule: string,
  args?: Record<string, string | number>,
): FieldProblem => ({ field, rule, args, messageKey: `invitations.problems.${rule}` });

/**
 * IN16: what an organiser may change a status to. accepted and rejected are the invitee's
 * answers (a booking with the token, IN2), never set by hand; a withdrawn invitation may be
 * restored to created, and one marked sent (e.g. by another channel) goes back the same way.
 */
export const STATUS_TRANSITIONS: Record<InvitationStatus, readonly InvitationStatus[]> = {
  created: ['sent', 'withdrawn'],
  sent: ['created', 'withdrawn'],
  withdrawn: ['created'],
  accepted: [],
  rejected: [],
};

/** What a create resolves to before it is written (IN7) or only checked (IN8). */
interface Resolved {
  eventId: string;
  personId: string | null;
  email: string;
  firstname: string | null;
  lastname: string | null;
  language: string;
}

/** Invitations IN1-IN8, IN12, IN16. */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly repo: InvitationsRepository,
    private readonly events: EventLookup,
    private readonly copies: EventCopiesRepository,
    private readonly people: PeopleContacts,
    private readonly bookings: InvitationBookings,
    private readonly i18n: I18nService,
    @Inject(SERVICE_CONFIG) private readonly config: BookingsInvitationsConfig,
    private readonly tombstones: TombstonesRepository,
  ) {}

  /**
   * The invitations as answered (IN3, IN4, ...): `publicUrl` is a portal page of the event
   * (linkTemplateOf: the invitation's website, else the event's), PUBLIC_INVITATION_URL only for
   * an event without a website. One query for the events' links.
   */
  async views(tenantId: string, rows: InvitationRow[], db?: Tx): Promise<Invitation[]> {
    const links = await this.copies.websiteLinksOf(
      tenantId,
      [...new Set(rows.map((r) => r.eventId))],
      db,
    );
    return rows.map((r) =>
      toInvitation(r, linkTemplateOf(r, links.get(r.eventId), this.config.PUBLIC_INVITATION_URL)),
    );
  }

  private async view(tenantId: string, row: InvitationRow, db?: Tx): Promise<Invitation> {
    return (await this.views(tenantId, [row], db))[0];
  }

  /** IN15 in the caller's language: header names and, in CSV, the separator. */
  exportStyle(ctx: RequestContext): ExportStyle {
    const locale = exportLocale(ctx.language);
    return { locale, headers: exportHeaders(this.i18n, 'invitations', EXPORT_COLUMNS, locale) };
  }

  notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('invitations.resource.invitation', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  /** The event must be the tenant's (404), asked of events when there is no copy yet. */
  async requireEvent(ctx: RequestContext, eventId: string): Promise<void> {
    await this.events.require(ctx, eventId);
  }

  /** IN3. */
  async list(ctx: RequestContext, query: InvitationListQuery): Promise<Paged<Invitation>> {
    const sort = parseSort(
      query.sort,
      INVITATION_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'asc' }],
      'id',
    );
    const [rows, total] = await this.repo.page(
      ctx.tenantId,
      { eventId: query.eventId?.toLowerCase(), status: query.status, q: query.q },
      { ...skipTake(query), orderBy: toOrderBy(sort) },
    );
    return paged(await this.views(ctx.tenantId, rows), total);
  }

  /** IN4. */
  async get(ctx: RequestContext, id: string): Promise<Invitation> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id.toLowerCase()) : null;
    if (!row) throw this.notFound(ctx, id);
    return this.view(ctx.tenantId, row);
  }

  /** The rules of a create beyond the shape: one of personId and email; information size. */
  private shapeProblems(input: CreateInvitationInput): FieldProblem[] {
    const problems: FieldProblem[] = [];
    const hasPerson = input.personId != null;
    const hasEmail = input.email != null;
    if (hasPerson === hasEmail) problems.push(problem('personId', 'personOrEmail'));
    if (input.inviteeInformation != null) {
      const bytes = Buffer.byteLength(JSON.stringify(input.inviteeInformation));
      if (bytes > INFORMATION_MAX_BYTES) {
        problems.push({
          field: 'inviteeInformation',
          rule: 'maxBytes',
          args: { max: INFORMATION_MAX_BYTES },
          messageKey: 'invitations.informationTooLarge',
        });
      }
    }
    return problems;
  }

  /**
   * Resolves the invitee: a person's name and e-mail from crm-people (503 when it does not
   * answer), names given override. Problems come back as field problems; a missing event throws.
   */
  private async resolve(
    ctx: RequestContext,
    input: CreateInvitationInput,
  ): Promise<{ value: Resolved | null; problems: FieldProblem[] }> {
    const eventId = input.eventId.toLowerCase();
    const event = await this.events.require(ctx, eventId);
    const websiteId = input.websiteId?.toLowerCase();
    // checked against the copy when there is one (a just-created event's copy may not be here yet)
    if (websiteId && event && !event.websiteIds.map((w) => w.toLowerCase()).includes(websiteId)) {
      return { value: null, problems: [problem('websiteId', 'websiteNotOfEvent')] };
    }
    let email = input.email?.trim() ?? '';
    let firstname = input.firstname?.trim() || null;
    let lastname = input.lastname?.trim() || null;
    let language: string | null = input.language ?? null;
    const personId = input.personId?.toLowerCase() ?? null;
    if (personId) {
      const { people } = await this.people.lookup(ctx.tenantId, [personId]);
      const person = people.get(personId);
      if (!person) {
        return {
          value: null,
          problems: [problem('personId', 'unknownPerson', { value: input.personId! })],
        };
      }
      if (!person.email) return { value: null, problems: [problem('personId', 'noEmail')] };
      email = person.email.trim();
      firstname ??= person.firstname?.trim() || null;
      lastname ??= person.lastname?.trim() || null;
      language ??= person.language === 'de' || person.language === 'en' ? person.language : null;
    }
    return {
      value: {
        eventId,
        personId,
        email,
        firstname,
        lastname,
        language: language ?? ctx.language,
      },
      problems: [],
    };
  }

  private exists(email: string): AppException {
    return new AppException(ErrorCode.CONFLICT, 'invitations.exists', { email }, [
      problem('email', 'exists', { email }),
    ]);
  }

  /** IN7. */
  async create(ctx: RequestContext, input: CreateInvitationInput): Promise<Invitation> {
    throwIfProblems(this.shapeProblems(input));
    const { value, problems } = await this.resolve(ctx, input);
    throwIfProblems(problems);
    const v = value!;
    try {
      const row = await this.repo.transaction(async (tx) => {
        // deleted or merged away since resolved: the same 400 as crm-people's answer. First,
        // before any row lock: the consumer, holding the person, waits for their invitations.
        if (
          v.personId &&
          (await this.tombstones.deletedPeople(tx, ctx.tenantId, [v.personId])).size
        ) {
          throwIfProblems([problem('personId', 'unknownPerson', { value: input.personId! })]);
        }
        await this.events.holdInTx(tx, ctx, v.eventId);
        return this.repo.create(tx, {
          id: randomUUID(),
          tenantId: ctx.tenantId,
          eventId: v.eventId,
          token: newToken(),
          personId: v.personId,
          email: v.email,
          emailKey: v.email.toLowerCase(),
          firstname: v.firstname,
          lastname: v.lastname,
          language: v.language,
          status: 'created',
          inviteeInformation: (input.inviteeInformation ?? undefined) as object | undefined,
          websiteId: input.websiteId?.toLowerCase() ?? null,
          ...createdStamps(ctx),
        });
      });
      return await this.view(ctx.tenantId, row);
    } catch (err) {
      if (isUniqueViolation(err)) throw this.exists(v.email);
      throw err;
    }
  }

  /** IN8: every check of IN7, nothing written; an address already invited is `email`/`unique`. */
  async validate(ctx: RequestContext, raw: unknown): Promise<InvitationValidation> {
    const { value, problems } = checkObject(CreateInvitationInput, raw);
    if (!problems.length) problems.push(...this.shapeProblems(value));
    if (!problems.length) {
      const resolved = await this.resolve(ctx, value);
      problems.push(...resolved.problems);
      const v = resolved.value;
      if (v && (await this.repo.emailTaken(ctx.tenantId, v.eventId, v.email.toLowerCase()))) {
        problems.push({
          field: 'email',
          rule: 'unique',
          args: { email: v.email },
          messageKey: 'invitations.exists',
        });
      }
    }
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    return { valid: problems.length === 0, errors };
  }

  /** IN5. */
  async remove(ctx: RequestContext, id: string): Promise<InvitationsDeleted> {
    const lower = id.toLowerCase();
    return this.repo.transaction(async (tx) => {
      const [row] = isUuid(lower) ? await this.repo.lockMany(tx, ctx.tenantId, [lower]) : [];
      if (!row) throw this.notFound(ctx, id);
      await this.repo.deleteMany(tx, ctx.tenantId, [row.id]);
      return { ids: [row.id] };
    });
  }

  /** Checks a list of ids: malformed ones 400 by index; answers them in lower case. */
  private ids(raw: unknown): string[] {
    const problems = listProblems(raw, 'ids', BATCH_MAX);
    const given = problems.length ? [] : (raw as unknown[]);
    given.forEach((v, i) => {
      if (!isUuid(v)) problems.push({ field: `ids[${i}]`, rule: 'isUuid' });
    });
    throwIfProblems(problems);
    return (given as string[]).map((v) => v.toLowerCase());
  }

  /** The tenant's invitations of the ids, locked; unknown ones a 404 naming each by index. */
  async lockAll(tx: Tx, ctx: RequestContext, raw: unknown): Promise<InvitationRow[]> {
    const list = this.ids(raw);
    const rows = await this.repo.lockMany(tx, ctx.tenantId, [...new Set(list)]);
    const found = new Map(rows.map((r) => [r.id, r]));
    const missing = list.flatMap((v, i) =>
      found.has(v) ? [] : [problem(`ids[${i}]`, 'unknownInvitation')],
    );
    if (missing.length) {
      throw new AppException(
        ErrorCode.NOT_FOUND,
        'invitations.notFoundMany',
        { count: missing.length },
        missing,
      );
    }
    return [...new Set(list)].map((id) => found.get(id)!); // in the order asked
  }

  /** IN6: all or nothing. */
  async removeMany(ctx: RequestContext, raw: unknown): Promise<InvitationsDeleted> {
    return this.repo.transaction(async (tx) => {
      const rows = await this.lockAll(tx, ctx, raw);
      const ids = rows.map((r) => r.id);
      await this.repo.deleteMany(tx, ctx.tenantId, ids);
      return { ids };
    });
  }

  /** IN12: replaces the information data (a JSON object, at most 16 KB, else 413). */
  async setInformation(ctx: RequestContext, id: string, body: unknown): Promise<Invitation> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throwIfProblems([problem('body', 'notObject')]);
    }
    const bytes = Buffer.byteLength(JSON.stringify(body));
    if (bytes > INFORMATION_MAX_BYTES) {
      throw new AppException(ErrorCode.PAYLOAD_TOO_LARGE, 'invitations.informationTooLarge', {
        max: '16 KB',
      });
    }
    return this.repo.transaction(async (tx) => {
      const [row] = isUuid(id)
        ? await this.repo.lockMany(tx, ctx.tenantId, [id.toLowerCase()])
        : [];
      if (!row) throw this.notFound(ctx, id);
      return this.view(
        ctx.tenantId,
        await this.repo.update(tx, row.id, {
          inviteeInformation: body as object,
          ...modifiedStamps(ctx),
        }),
        tx,
      );
    });
  }

  /** IN16: all or nothing; a transition not allowed is a 409 naming both states. */
  async setStatus(
    ctx: RequestContext,
    raw: unknown,
    status: InvitationStatus,
  ): Promise<Invitation[]> {
    return this.repo.transaction(async (tx) => {
      const rows = await this.lockAll(tx, ctx, raw);
      const bad = rows.filter(
        (r) =>
          r.status !== status &&
          !STATUS_TRANSITIONS[r.status as InvitationStatus]?.includes(status),
      );
      const index = new Map((raw as string[]).map((v, i) => [v.toLowerCase(), i]));
      if (bad.length === 1) {
        const args = { id: bad[0].id, from: bad[0].status, to: status };
        throw new AppException(ErrorCode.CONFLICT, 'invitations.transition', args, [
          problem(`ids[${index.get(bad[0].id)}]`, 'transition', args),
        ]);
      }
      if (bad.length) {
        throw new AppException(
          ErrorCode.CONFLICT,
          'invitations.transitions',
          { count: bad.length, to: status },
          bad.map((r) =>
            problem(`ids[${index.get(r.id)}]`, 'transition', { from: r.status, to: status }),
          ),
        );
      }
      const changing = rows.filter((r) => r.status !== status).map((r) => r.id);
      await this.repo.updateMany(tx, ctx.tenantId, changing, {
        status,
        ...(status === 'sent' ? { sentAt: new Date() } : {}),
        ...modifiedStamps(ctx),
      });
      const order = new Map(this.ids(raw).map((v, i) => [v, i]));
      const after = await this.repo.findMany(
        ctx.tenantId,
        rows.map((r) => r.id),
        tx,
      );
      return this.views(
        ctx.tenantId,
        after.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
        tx,
      );
    });
  }

  /** IN1: unknown, another tenant's and withdrawn are the same 404. */
  async publicGet(ctx: RequestContext, token: string): Promise<PublicInvitation> {
    const row = await this.publicRow(ctx, token);
    return toPublicInvitation(row, await this.events.find(ctx.tenantId, row.eventId));
  }

  private async publicRow(ctx: RequestContext, token: string): Promise<InvitationRow> {
    const row = token.length <= 64 ? await this.repo.findByToken(ctx.tenantId, token) : null;
    if (!row || row.status === 'withdrawn') throw this.publicNotFound(ctx);
    return row;
  }

  /** The 404 of the public endpoints names no token (it is a secret of the invitee). */
  private publicNotFound(ctx: RequestContext): AppException {
    return this.notFound(ctx, '');
  }

  /**
   * IN2: the invitee declines. A booking made with the invitation is cancelled and its seats
   * freed, in the same transaction; a second reject answers the same state and changes nothing.
   */
  async publicReject(ctx: RequestContext, token: string): Promise<PublicInvitation> {
    const row = await this.repo.transaction(async (tx) => {
      const current =
        token.length <= 64 ? await this.repo.lockByToken(tx, ctx.tenantId, token) : null;
      if (!current || current.status === 'withdrawn') throw this.publicNotFound(ctx);
      if (current.status === 'rejected') return current;
      if (current.bookingId) {
        await this.bookings.cancelForRejection(tx, ctx.tenantId, current.bookingId);
      }
      const now = new Date();
      const updated = await this.repo.update(tx, current.id, {
        status: 'rejected',
        respondedAt: now,
        modifiedBy: 'public',
        modifiedByUserId: null,
      });
      // in the transaction's own connection: a pool full of waiting rejects must not starve it
      const event = await this.copies.find(ctx.tenantId, current.eventId, tx);
      const payload: InvitationRespondedEvent = {
        tenantId: ctx.tenantId,
        eventId: current.eventId,
        eventTitle: event?.title ?? '',
        personId: current.personId,
        language: current.language,
        at: now.toISOString(),
        invitationId: current.id,
      };
      await addOutboxEvent(tx, {
        tenantId: ctx.tenantId,
        subject: Subjects.bookingsInvitations.invitationRejected,
        payload,
      });
      return updated;
    });
    return toPublicInvitation(row, await this.events.find(ctx.tenantId, row.eventId));
  }
}
