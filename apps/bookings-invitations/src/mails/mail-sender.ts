import { Inject, Injectable, Logger } from '@nestjs/common';
import { InvoiceSenderReply, InvoiceSenderRequest, MessageBus, Subjects } from '@crm/messaging';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';

/** How long a tenant's sender name is kept: a settings change shows in mails within a minute. */
export const SENDER_NAME_TTL_MS = 60_000;

/** A From header as nodemailer takes it: it quotes or encodes the name (RFC 5322, RFC 2047). */
export interface MailFrom {
  name: string;
  address: string;
}

/** `"CRM Events" <events@x>`, `CRM Events <events@x>` or `events@x` -> name and address. */
export function parseMailFrom(from: string): MailFrom {
  const bracket = /<([^>]+)>/.exec(from);
  const address = (bracket?.[1] ?? from).trim();
  const name = bracket
    ? from
        .slice(0, bracket.index)
        .trim()
        .replace(/^"(.*)"$/, '$1')
    : '';
  return { name, address };
}

/** A display name fit for a header: one line, no control characters, at most 200 characters. */
export function displayName(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const name = raw
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return name ? name.slice(0, 200) : null;
}

/**
 * The From of a tenant's mails: the name of the tenant's invoice sender (events service event
 * settings, asked over NATS as the invoice PDF does) with MAIL_FROM's address, so the invitee
 * sees the organiser and the mail still leaves from the platform's domain (SPF, DKIM). A tenant
 * without a sender name, or events not answering, gets MAIL_FROM as it is: a mail is never held
 * back for its display name. Answers are kept SENDER_NAME_TTL_MS per tenant (one question per
 * tenant and minute in an on-sale, not one per mail).
 */
@Injectable()
export class MailSenders {
  private readonly logger = new Logger(MailSenders.name);
  private readonly fallback: MailFrom;
  private readonly names = new Map<string, { name: Promise<string | null>; until: number }>();

  constructor(
    private readonly bus: MessageBus,
    @Inject(SERVICE_CONFIG) config: BookingsInvitationsConfig,
  ) {
    this.fallback = parseMailFrom(config.MAIL_FROM);
  }

  async fromOf(tenantId: string): Promise<MailFrom> {
    const name = await this.nameOf(tenantId);
    return name ? { name, address: this.fallback.address } : this.fallback;
  }

  private nameOf(tenantId: string): Promise<string | null> {
    const now = Date.now();
    const kept = this.names.get(tenantId);
    if (kept && kept.until > now) return kept.name;
    const name = this.ask(tenantId);
    this.names.set(tenantId, { name, until: now + SENDER_NAME_TTL_MS });
    return name;
  }

  private async ask(tenantId: string): Promise<string | null> {
    const ask: InvoiceSenderRequest = { tenantId };
    try {
      const reply = await this.bus.request<InvoiceSenderReply>(Subjects.events.invoiceSender, ask);
      return displayName(reply?.sender?.name);
    } catch (err) {
      this.logger.warn(`sender name of ${tenantId} not known: ${(err as Error).message}`);
      return null;
    }
  }
}
