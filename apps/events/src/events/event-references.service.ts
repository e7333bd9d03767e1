import { Injectable } from '@nestjs/common';
import { AppException, FieldProblem } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { EntryRef, EventSettingsLookup } from '../event-settings/event-settings-lookup.service';
import type { EventFieldsInput, EventTagInput } from './dto/event.input';
import type { SnapshotSettings } from './event-outbox';
import { problem } from './event-problem';
import type { Tx } from '../database/tx';
import { EventsRepository } from './events.repository';

/** Defaults of new events: the tenant's event settings (ES1) time zone and eventDefaults. */
export interface EventDefaults {
  timeZone: string;
  capacity: number | null;
  categoryId: string | null;
  bookingFormFieldSetId: string | null;
  cancellationConditionId: string | null;
  taxRateId: string | null;
  contactPersonTemplateId: string | null;
}

/**
 * Everything an event refers to outside its own row: settings list entries, vendor lists, tags
 * by text, the tenant's defaults and what an event's snapshot carries of its settings entries. Every check is the
 * event settings' EventSettingsLookup; this class only names the fields of an event body.
 */
@Injectable()
export class EventReferences {
  constructor(
    private readonly repo: EventsRepository,
    private readonly lookup: EventSettingsLookup,
  ) {}

  /** Problems of the references of a body (entries, vendor ids, the template), by field. */
  async problems(ctx: RequestContext, input: EventFieldsInput): Promise<FieldProblem[]> {
    const tagRefs = (list: 'ORGA_TAGS' | 'PORTAL_TAGS', field: string, tags?: EventTagInput[]) =>
      (tags ?? []).map((t, i): EntryRef => ({ field: `${field}[${i}].id`, list, id: t.id }));
    const refs: EntryRef[] = [
      { field: 'categoryId', list: 'EVENT_CATEGORIES', id: input.categoryId },
      ...(input.contributors ?? []).map((c, i): EntryRef => ({
        field: `contributors[${i}].roleId`,
        list: 'CONTRIBUTOR_ROLES',
        id: c.roleId,
      })),
      {
        field: 'bookingFormFieldSetId',
        list: 'BOOKING_FORM_FIELD_SETS',
        id: input.bookingFormFieldSetId,
      },
      {
        field: 'cancellationConditionId',
        list: 'CANCELLATION_CONDITIONS',
        id: input.cancellationConditionId,
      },
      ...tagRefs('ORGA_TAGS', 'orgaTags', input.orgaTags),
      ...tagRefs('PORTAL_TAGS', 'portalTags', input.portalTags),
    ];
    const problems: FieldProblem[] = [];
    try {
      await this.lookup.checkEntryIds(ctx.tenantId, refs, ctx.language);
    } catch (err) {
      if (!(err instanceof AppException)) throw err;
      problems.push(...err.problems);
    }
    if (input.taxRateId && !this.lookup.isTaxRate(input.taxRateId)) {
      problems.push(problem('taxRateId', 'unknownTaxRate'));
    }
    if (input.onlineMeeting && !this.lookup.isMeetingPlatform(input.onlineMeeting.platformId)) {
      problems.push(problem('onlineMeeting.platformId', 'unknownMeetingPlatform'));
    }
    const templateId = input.contactPerson?.templateId;
    if (templateId && !(await this.repo.template(ctx.tenantId, templateId.toLowerCase()))) {
      problems.push(problem('contactPerson.templateId', 'unknownTemplate'));
    }
    return problems;
  }

  /** The entry ids of the orga and portal tags (texts found in any case, else created in `tx`). */
  async tagEntryIds(
    tx: Tx,
    ctx: RequestContext,
    orgaTags: EventTagInput[],
    portalTags: EventTagInput[],
  ): Promise<string[]> {
    const orga = await this.lookup.tagIdsByText(
      tx,
      ctx.tenantId,
      'ORGA_TAGS',
      orgaTags,
      'orgaTags',
      ctx.language,
    );
    const portal = await this.lookup.tagIdsByText(
      tx,
      ctx.tenantId,
      'PORTAL_TAGS',
      portalTags,
      'portalTags',
      ctx.language,
    );
    return [...orga, ...portal];
  }

  async defaults(ctx: RequestContext): Promise<EventDefaults> {
    const s = await this.lookup.settingsOf(ctx.tenantId);
    return { timeZone: s.timeZone, ...s.eventDefaults };
  }

  /**
   * The tiers of the event's cancellation condition (frozen onto bookings) and the fields of its
   * booking form field set, null when it has none; read in `tx`, the write that announces them.
   */
  async snapshotSettings(
    tenantId: string,
    r: { cancellationConditionId: string | null; bookingFormFieldSetId: string | null },
    tx: Tx,
  ): Promise<SnapshotSettings> {
    // one after the other: a transaction runs one query at a time
    const cancellationTiers = r.cancellationConditionId
      ? await this.lookup.cancellationTiers(tenantId, r.cancellationConditionId, tx)
      : null;
    const bookingFormFields = r.bookingFormFieldSetId
      ? await this.lookup.bookingFormFields(tenantId, r.bookingFormFieldSetId, tx)
      : null;
    return { cancellationTiers, bookingFormFields };
  }
}
