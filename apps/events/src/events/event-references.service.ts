import { Injectable } from '@nestjs/common';
import type { FieldProblem } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { EventFieldsInput, EventTagInput } from './dto/event.input';
import { EventsRepository, Tx } from './events.repository';

/** Defaults of new events (the tenant's event settings, ES1). */
export interface EventDefaults {
  timeZone: string;
  capacity: number | null;
  categoryId: string | null;
  bookingFormFieldSetId: string | null;
  cancellationConditionId: string | null;
  taxRateId: string | null;
  contactPersonTemplateId: string | null;
}

/** Until a tenant writes its event settings. */
export const FALLBACK_TIME_ZONE = 'UTC';

/**
 * Everything an event refers to outside its own row: settings list entries, vendor lists, tags
 * by text, the tenant's defaults and the tiers of a cancellation condition. The one seam between
 * events and the event settings (EventSettingsLookup of event-settings/), so that no list check
 * is written twice.
 */
@Injectable()
export class EventReferences {
  constructor(private readonly repo: EventsRepository) {}

  /** Problems of the references of a body (entries, vendor ids, the template), by field. */
  async problems(ctx: RequestContext, input: EventFieldsInput): Promise<FieldProblem[]> {
    const problems: FieldProblem[] = [];
    const templateId = input.contactPerson?.templateId;
    if (templateId && !(await this.repo.template(ctx.tenantId, templateId.toLowerCase()))) {
      problems.push({
        field: 'contactPerson.templateId',
        rule: 'unknownTemplate',
        messageKey: 'events.validation.unknownTemplate',
      });
    }
    return problems;
  }

  /** The entry ids of the orga and portal tags (texts found in any case, else created in `tx`). */
  async tagEntryIds(
    _tx: Tx,
    _ctx: RequestContext,
    orgaTags: EventTagInput[],
    portalTags: EventTagInput[],
  ): Promise<string[]> {
    return [...orgaTags, ...portalTags].flatMap((t) => (t.id ? [t.id.toLowerCase()] : []));
  }

  async defaults(_ctx: RequestContext): Promise<EventDefaults> {
    return {
      timeZone: FALLBACK_TIME_ZONE,
      capacity: null,
      categoryId: null,
      bookingFormFieldSetId: null,
      cancellationConditionId: null,
      taxRateId: null,
      contactPersonTemplateId: null,
    };
  }

  /** The tiers of a cancellation condition (frozen onto bookings), null when none. */
  async cancellationTiers(_tenantId: string, _id: string | null): Promise<unknown[] | null> {
    return null;
  }
}
