import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import { modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { EventLookup } from '../event-copies/event-lookup.service';
import { MailDraft } from '../mails/mail-outbox';
import type {
  InvitationFreeTextMailInput,
  InvitationMailsFilterInput,
} from './dto/invitation.input';
import type { InvitationMail, InvitationMailsQueued } from './dto/invitation.output';
import { freeTextMail, invitationMail, linkTemplateOf, MailEvent } from './invitation-mail-text';
import { toInvitationMail } from './invitation.mapper';
import { InvitationRow, InvitationsRepository } from './invitations.repository';
import { InvitationsService, problem } from './invitations.service';
import { MailsRepository } from '../mails/mails.repository';
import type { Tx } from '../database/tx';

/** Statuses an invitation mail may go to: answered and withdrawn invitations get none. */
const SENDABLE = new Set(['created', 'sent']);

/**
 * Invitation mails IN9-IN11, IN17: written to the mail outbox in the transaction that marks the
 * invitations sent, so a mail goes out exactly when the change is committed (the mail worker
 * sends and retries).
 */
@Injectable()
export class InvitationMailsService {
  constructor(
    private readonly repo: InvitationsRepository,
    private readonly invitations: InvitationsService,
    private readonly copies: EventCopiesRepository,
    private readonly events: EventLookup,
    private readonly i18n: I18nService,
    @Inject(SERVICE_CONFIG) private readonly config: BookingsInvitationsConfig,
    private readonly mailbox: MailsRepository,
  ) {}

  /**
   * 409 naming each invitation that cannot get the mail (all or nothing): for the invitation
   * mail as a transition to sent, for free text as a withdrawn invitation.
   */
  private refuseUnsendable(
    rows: InvitationRow[],
    raw: unknown,
    allowed: Set<string>,
    freeText = false,
  ): void {
    const bad = rows.filter((r) => !allowed.has(r.status));
    if (!bad.length) return;
    const args = (r: InvitationRow) => ({ id: r.id, from: r.status, to: 'sent' });
    const fieldOf = idsFieldOf(raw);
    const problemOf = (r: InvitationRow) =>
      problem(fieldOf(r), freeText ? 'noMail' : 'transition', args(r));
    if (bad.length === 1) {
      const key = freeText ? 'invitations.noMail' : 'invitations.transition';
      throw new AppException(ErrorCode.CONFLICT, key, args(bad[0]), [problemOf(bad[0])]);
    }
    throw new AppException(
      ErrorCode.CONFLICT,
      freeText ? 'invitations.noMails' : 'invitations.transitions',
      { count: bad.length, to: 'sent' },
      bad.map(problemOf),
    );
  }

  /** The events of the invitations as the mails need them (this service's copies, one query each). */
  private async mailEvents(tx: Tx, tenantId: string, rows: InvitationRow[]) {
    const out = new Map<string, MailEvent>();
    for (const eventId of new Set(rows.map((r) => r.eventId))) {
      const copy = await this.copies.find(tenantId, eventId, tx);
      if (!copy || copy.deleted) {
        // no copy yet (just created): the mail would have no title or date; try again shortly
        throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
          service: 'events',
        });
      }
      out.set(eventId, {
        eventId,
        title: copy.title,
        startsAt: copy.startsAt,
        timeZone: copy.timeZone,
        websiteLinks: copy.websiteLinks,
      });
    }
    return out;
  }

  /**
   * Queues the invitation mail for each row and marks them sent, in `tx`. All or nothing: a row
   * whose event has no page to open it on (no website, no PUBLIC_INVITATION_URL) is a 409 naming
   * it (`fieldOf`), and nothing is sent.
   */
  private async sendInvitations(
    tx: Tx,
    ctx: RequestContext,
    rows: InvitationRow[],
    fieldOf: (row: InvitationRow) => string,
  ): Promise<InvitationMailsQueued> {
    const events = await this.mailEvents(tx, ctx.tenantId, rows);
    const templates = rows.map((r) =>
      linkTemplateOf(r, events.get(r.eventId)!.websiteLinks, this.config.PUBLIC_INVITATION_URL),
    );
    const pageless = rows.filter((_, i) => !templates[i]);
    if (pageless.length) {
      const title = (r: InvitationRow) => events.get(r.eventId)!.title;
      throw new AppException(
        ErrorCode.CONFLICT,
        'invitations.noPage',
        { title: title(pageless[0]) },
        [
          ...new Map(
            pageless.map((r) => [fieldOf(r), problem(fieldOf(r), 'noPage', { title: title(r) })]),
          ).values(),
        ],
      );
    }
    const drafts: MailDraft[] = rows.map((r, i) =>
      invitationMail(this.i18n, r, events.get(r.eventId)!, templates[i]!),
    );
    await this.mailbox.enqueueMany(tx, drafts);
    await this.repo.updateMany(
      tx,
      ctx.tenantId,
      rows.map((r) => r.id),
      { status: 'sent', sentAt: new Date(), ...modifiedStamps(ctx) },
    );
    return { queued: drafts.length, invitationIds: rows.map((r) => r.id) };
  }

  /** IN9. */
  send(ctx: RequestContext, ids: unknown): Promise<InvitationMailsQueued> {
    return this.repo.transaction(async (tx) => {
      const rows = await this.invitations.lockAll(tx, ctx, ids);
      this.refuseUnsendable(rows, ids, SENDABLE);
      return this.sendInvitations(tx, ctx, rows, idsFieldOf(ids));
    });
  }

  /** IN10: every invitation of the event matching the filter that may get the mail. */
  async sendFiltered(
    ctx: RequestContext,
    filter: InvitationMailsFilterInput,
  ): Promise<InvitationMailsQueued> {
    const eventId = filter.eventId.toLowerCase();
    await this.events.require(ctx, eventId);
    return this.repo.transaction(async (tx) => {
      const rows = (
        await this.repo.lockFiltered(tx, ctx.tenantId, {
          eventId,
          status: filter.status,
          q: filter.q,
        })
      ).filter((r) => SENDABLE.has(r.status));
      if (!rows.length) return { queued: 0, invitationIds: [] };
      return this.sendInvitations(tx, ctx, rows, () => 'eventId');
    });
  }

  /** IN11: the organiser's text to each (withdrawn ones refused); statuses stay. */
  freeText(
    ctx: RequestContext,
    input: InvitationFreeTextMailInput,
  ): Promise<InvitationMailsQueued> {
    return this.repo.transaction(async (tx) => {
      const rows = await this.invitations.lockAll(tx, ctx, input.ids);
      this.refuseUnsendable(rows, input.ids, new Set(['created', 'sent', 'accepted', 'rejected']));
      await this.mailbox.enqueueMany(
        tx,
        rows.map((r) => freeTextMail(r, input.subject, input.text)),
      );
      return { queued: rows.length, invitationIds: rows.map((r) => r.id) };
    });
  }

  /** IN17: the invitation's mails, newest first, with their status. */
  async mailsOf(ctx: RequestContext, id: string): Promise<InvitationMail[]> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id.toLowerCase()) : null;
    if (!row) throw this.invitations.notFound(ctx, id);
    return (await this.mailbox.ofInvitation(ctx.tenantId, row.id)).map(toInvitationMail);
  }
}

/** `ids[i]`: where an invitation stands in the `ids` the request gave (any case). */
function idsFieldOf(raw: unknown): (row: InvitationRow) => string {
  const order = new Map((raw as string[]).map((v, i) => [v.toLowerCase(), i]));
  return (r) => `ids[${order.get(r.id)}]`;
}
