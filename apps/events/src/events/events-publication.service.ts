import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  ErrorCode,
  FieldProblem,
  throwIfProblems,
  translateError,
} from '@crm/errors';
import {
  MessageBus,
  Subjects,
  TicketTypesSummaryReply,
  TicketTypesSummaryRequest,
} from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import { modifiedStamps } from '@crm/persistence';
import type { Event, EventValidationResult } from './dto/event.output';
import type { EventPublicationInput } from './dto/event-note.input';
import { problem } from './event-checks.service';
import { addPublished } from './event-outbox';
import { publishedEventProblems } from './publication-rules';
import { toEvent } from './event.mapper';
import type { Tx } from '../database/tx';
import { EventRecord, EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/**
 * E11, E12: what an event needs to be published, and publishing it on websites of the tenant.
 * Publishing an event that lacks something is a 409 listing every missing piece.
 */
@Injectable()
export class EventsPublicationService {
  constructor(
    private readonly repo: EventsRepository,
    private readonly events: EventsService,
    private readonly i18n: I18nService,
    private readonly bus: MessageBus,
  ) {}

  /**
   * How many ticket types the event has on sale, asked of bookings-invitations (they live
   * there). No answer in time, or one this service cannot read: a 503 naming
   * bookings-invitations.
   */
  private async ticketTypes(r: EventRecord): Promise<TicketTypesSummaryReply> {
    const ask: TicketTypesSummaryRequest = { tenantId: r.tenantId, eventId: r.id };
    const reply = await this.bus.request<TicketTypesSummaryReply>(
      Subjects.bookingsInvitations.ticketTypesSummary,
      ask,
    );
    if (typeof reply?.active !== 'number') {
      throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
        service: 'bookings-invitations',
      });
    }
    return reply;
  }

  /** Unknown or foreign website ids, named by index (`websiteIds[2]`). */
  private async websiteProblems(tx: Tx | undefined, tenantId: string, ids: string[]) {
    const found = await this.repo.websites(tenantId, ids, tx);
    return ids.flatMap((id, i) =>
      found.has(id) ? [] : [problem(`websiteIds[${i}]`, 'unknownWebsite')],
    );
  }

  /**
   * Every missing piece, by field: start and end, a start in the future, a venue or an online
   * meeting, at least one website (the given ones, else the stored ones), each website the
   * tenant's, not cancelled, and at least one active ticket type (`ticketTypes`: the answer of
   * bookings-invitations, or 'unavailable' when it gave none, which E12 lists as a problem).
   */
  async problems(
    r: EventRecord,
    websiteIds: string[] | undefined,
    ticketTypes: TicketTypesSummaryReply | 'unavailable',
    tx?: Tx,
    now = new Date(),
  ): Promise<FieldProblem[]> {
    const problems = publishedEventProblems(r);
    if (ticketTypes === 'unavailable')
      problems.push(
        problem('ticketTypes', 'ticketTypesUnavailable', { service: 'bookings-invitations' }),
      );
    else if (ticketTypes.active === 0)
      problems.push(problem('ticketTypes', 'noActiveTicketType', { total: ticketTypes.total }));
    if (r.startsAt && r.startsAt <= now) problems.unshift(problem('startsAt', 'startInPast'));
    const ids = websiteIds ?? r.websites.map((w) => w.websiteId);
    if (!ids.length) problems.push(problem('websiteIds', 'noWebsite'));
    else if (websiteIds) problems.push(...(await this.websiteProblems(tx, r.tenantId, ids)));
    if (r.status === 'cancelled') problems.push(problem('status', 'cancelled'));
    return problems;
  }

  /** E12 */
  async validate(
    ctx: RequestContext,
    id: string,
    websiteIds?: string[],
  ): Promise<EventValidationResult> {
    const r = await this.events.record(ctx, id);
    // a validation lists what it cannot know instead of failing
    const ticketTypes = await this.ticketTypes(r).catch(() => 'unavailable' as const);
    const problems = await this.problems(
      r,
      websiteIds?.map((w) => w.toLowerCase()),
      ticketTypes,
    );
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    return { valid: problems.length === 0, errors };
  }

  /**
   * E11: `published: true` runs every check of E12 (409 with the list when one fails), writes
   * the websites, sets publishedAt, makes a draft `scheduled` and announces
   * events.events.published. `published: false`
   * keeps the websites unless websiteIds are given. Both grow the sequence and write
   * events.events.changed. Publishing asks bookings-invitations for the ticket types before the
   * event is locked (no lock waits on another service); no answer is a 503 naming it.
   */
  async update(ctx: RequestContext, id: string, input: EventPublicationInput): Promise<Event> {
    const websiteIds = input.websiteIds?.map((w) => w.toLowerCase());
    const ticketTypes = input.published
      ? await this.ticketTypes(await this.events.record(ctx, id))
      : null;
    const record = await this.repo.transaction(async (tx) => {
      const current = await this.events.lockOne(tx, ctx, id);
      if (ticketTypes) {
        const problems = await this.problems(current, websiteIds, ticketTypes, tx);
        if (problems.length) {
          throw new AppException(
            ErrorCode.CONFLICT,
            'events.errors.notPublishable',
            { count: problems.length },
            problems,
          );
        }
      } else if (websiteIds) {
        throwIfProblems(await this.websiteProblems(tx, ctx.tenantId, websiteIds));
      }
      if (websiteIds) await this.repo.replaceWebsites(tx, ctx.tenantId, current.id, websiteIds);
      await this.repo.update(tx, ctx.tenantId, current.id, {
        published: input.published,
        publishedAt: input.published ? (current.publishedAt ?? new Date()) : null,
        // a draft that is published is going to take place: calendars show it confirmed
        ...(input.published && current.status === 'draft' ? { status: 'scheduled' } : {}),
        sequence: { increment: 1 },
        ...modifiedStamps(ctx),
      });
      const saved = await this.events.announce(tx, ctx, current.id);
      if (input.published) await addPublished(tx, saved);
      return saved;
    });
    return toEvent(record);
  }
}
