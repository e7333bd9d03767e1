import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InvoiceSenderReply, InvoiceSenderRequest, Subjects } from '@crm/messaging';
import { EventSettingsLookup } from './event-settings-lookup.service';

/**
 * NATS queries about the event settings (the tenant comes from the validated payload):
 * bookings-invitations asks for the invoice sender when it renders an invoice PDF.
 */
@Controller()
export class EventSettingsMessages {
  constructor(private readonly lookup: EventSettingsLookup) {}

  /** The sender's filled fields; null when none is (the invoice then says it has no sender). */
  @MessagePattern(Subjects.events.invoiceSender)
  async invoiceSender(@Payload() req: InvoiceSenderRequest): Promise<InvoiceSenderReply> {
    const settings = await this.lookup.settingsOf(req.tenantId);
    const filled = Object.entries(settings.invoiceSender).filter(([, v]) => v != null && v !== '');
    return {
      sender: filled.length ? Object.fromEntries(filled) : null,
      currency: settings.currency,
      timeZone: settings.timeZone,
    };
  }
}
