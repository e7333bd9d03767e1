import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  ErrorCode,
  FieldProblem,
  throwIfProblems,
  translateError,
} from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { modifiedStamps } from '@crm/persistence';
import type { Event, EventValidationResult } from './dto/event.output';
import type { EventPublicationInput } from './dto/event-note.input';
import { problem } from './event-checks.service';
import { addPublished } from './event-outbox';
import { publishedEventProblems } from './publication-rules';
import { toEvent } from './event.mapper';
import { EventRecord, EventsRepository, Tx } from './events.repository';
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
  ) {}

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
   * tenant's, and not cancelled. Ticket types cannot be checked yet: they live in
   * bookings-invitations, which does not exist yet (its check joins here when it does).
   */
  async problems(
    r: EventRecord,
    websiteIds: string[] | undefined,
    tx?: Tx,
    now = new Date(),
  ): Promise<FieldProblem[]> {
    const problems = publishedEventProblems(r);
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
    const problems = await this.problems(
      r,
      websiteIds?.map((w) => w.toLowerCase()),
    );
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    return { valid: problems.length === 0, errors };
  }

  /**
   * E11: `published: true` runs every check of E12 (409 with the list when one fails), writes
   * the websites, sets publishedAt and announces events.events.published. `published: false`
   * keeps the websites unless websiteIds are given. Both grow the sequence and write
   * events.events.changed.
   */
  async update(ctx: RequestContext, id: string, input: EventPublicationInput): Promise<Event> {
    const websiteIds = input.websiteIds?.map((w) => w.toLowerCase());
    const record = await this.repo.transaction(async (tx) => {
      const current = await this.events.lockOne(tx, ctx, id);
      if (input.published) {
        const problems = await this.problems(current, websiteIds, tx);
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
