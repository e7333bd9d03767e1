import { Injectable } from '@nestjs/common';
import { AppException, ErrorCode } from '@crm/errors';
import { InvoiceSenderReply, InvoiceSenderRequest, MessageBus, Subjects } from '@crm/messaging';

/**
 * The tenant's invoice sender (events settings `invoiceSender`), asked of the events service for
 * every rendering of an accounting document (invoice, credit note).
 */
@Injectable()
export class InvoiceSenders {
  constructor(private readonly bus: MessageBus) {}

  /** The sender's non-empty fields, null when none is configured; no answer: 503 (a mail retries). */
  async of(tenantId: string): Promise<Record<string, string> | null> {
    const ask: InvoiceSenderRequest = { tenantId };
    const reply = await this.bus.request<InvoiceSenderReply>(Subjects.events.invoiceSender, ask);
    if (!reply || typeof reply !== 'object' || !('sender' in reply)) {
      throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
        service: 'events',
      });
    }
    const s = reply.sender;
    if (!s || typeof s !== 'object') return null;
    const fields = Object.entries(s).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
    );
    return fields.length ? Object.fromEntries(fields) : null;
  }
}
