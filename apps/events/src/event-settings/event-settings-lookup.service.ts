import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, FieldProblem, isUuid } from '@crm/errors';
import type { Language } from '@crm/i18n';
import { SettingsLookup } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { EventSettingsList } from '../generated/prisma/client';
import type { BookingFormField, CancellationTier } from './dto/entry-data.input';
import type { Tx } from '../database/tx';
import { EventSettingsRepository, eventSettingsStore, Db } from './event-settings.repository';
import { EventsChangedHook, EventsChangedNotifier } from './events-changed';
import { EVENT_SETTINGS } from './settings-lists';
import { settingsFromRow, type EventSettingsObject } from './settings-object';

/** The event defaults that name an entry of a tenant list, and the list. */
export const DEFAULT_ENTRY_LISTS = [
  ['categoryId', 'EVENT_CATEGORIES'],
  ['bookingFormFieldSetId', 'BOOKING_FORM_FIELD_SETS'],
  ['cancellationConditionId', 'CANCELLATION_CONDITIONS'],
] as const satisfies readonly (readonly [string, EventSettingsList])[];
type DefaultEntryKey = (typeof DEFAULT_ENTRY_LISTS)[number][0];
import { isMeetingPlatformId, isTaxRateId } from './vendor-lists';

export type { EntryView } from '@crm/settings-lists';
export type { EventSettingsObject } from './settings-object';
export type { EventsChangedHook } from './events-changed';

/** A reference of an event (or of the settings) to an entry of a tenant list. */
export interface EntryRef {
  /** The field the 400 names (`categoryId`, `contributors[2].roleId`). */
  field: string;
  list: EventSettingsList;
  /** Null or undefined: nothing referenced, nothing to check. */
  id: string | null | undefined;
}

/** What an event copies of a contact person template. */
export interface TemplateFields {
  id: string;
  name: string;
  salutation: string | null;
  title: string | null;
  firstname: string | null;
  lastname: string | null;
  position: string | null;
  email: string | null;
  phone: string | null;
}

/** A tag as a write names it: by the id of its entry, or by text (found or created). */
export interface TagRef {
  id?: string | null;
  text?: string | null;
}

/**
 * What the events domain (and the websites, bookings snapshots) needs from the event settings
 * when it writes or shows an event: checks of entry ids, tags by text, the vendor lists, the data
 * of booking form field sets and cancellation conditions, the tenant's settings object. It is the
 * engine's lookup (entries, anyEntries, requireEntry, resolveTags: system entries merged with the
 * tenant's, translated) with these additions.
 */
@Injectable()
export class EventSettingsLookup extends SettingsLookup<EventSettingsList, Db> {
  constructor(
    private readonly prisma: PrismaService,
    i18n: I18nService,
    private readonly entryData: EventSettingsRepository,
    private readonly notifier: EventsChangedNotifier,
  ) {
    super(eventSettingsStore(prisma), EVENT_SETTINGS, i18n);
  }

  /**
   * The events domain registers here how it announces events whose snapshot a settings write
   * changed (deleting with force a booking form field set or cancellation condition they use,
   * changing the tiers of their cancellation condition): called in that write's transaction,
   * after their `sequence` grew, with their ids (see EventsChangedHook).
   */
  onEventsChanged(hook: EventsChangedHook): void {
    this.notifier.register(hook);
  }

  /**
   * The problems of references whose id is not an entry of its list for the tenant (rule
   * `unknownEntry`; system entries count), one per reference. Ids compare ignoring case. One
   * query for all.
   */
  async entryProblems(
    tenantId: string,
    refs: readonly EntryRef[],
    lang: Language = 'en',
    db?: Db,
  ): Promise<FieldProblem[]> {
    const given = refs.filter((r): r is EntryRef & { id: string } => r.id != null);
    const wellFormed = given.filter((r) => isUuid(r.id));
    const missing = await this.missingEntries(
      tenantId,
      wellFormed.map((r) => ({ list: r.list, id: r.id.toLowerCase() })),
      db,
    );
    const unknown = new Set(wellFormed.filter((_, i) => missing[i]));
    return given
      .filter((r) => !isUuid(r.id) || unknown.has(r))
      .map((r) => ({
        field: r.field,
        rule: 'unknownEntry',
        args: { list: this.listName(r.list, lang) },
      }));
  }

  /** Throws the 400 of entryProblems, naming each unknown reference. */
  async checkEntryIds(
    tenantId: string,
    refs: readonly EntryRef[],
    lang: Language = 'en',
    db?: Db,
  ): Promise<void> {
    const problems = await this.entryProblems(tenantId, refs, lang, db);
    if (problems.length) throw AppException.validation(problems);
  }

  /** Whether `id` is one of the tenant's contact person templates. */
  async isTemplate(tenantId: string, id: unknown, db: Db = this.prisma): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (
      (await db.contactPersonTemplate.count({ where: { tenantId, id: id.toLowerCase() } })) > 0
    );
  }

  /**
   * The entry ids of tags given by id (must exist: 400 `<field>[i].id`, rule unknownEntry) or by
   * text (found ignoring case, else created), in input order without duplicates. No lock: the
   * insert is INSERT ... ON CONFLICT DO NOTHING on the unique index ignoring case, and a text
   * another transaction created meanwhile is read again, so concurrent writers of one new text
   * share one entry. Call it inside the transaction of the write that links the tags.
   */
  async tagIdsByText(
    tx: Tx,
    tenantId: string,
    list: 'ORGA_TAGS' | 'PORTAL_TAGS',
    items: readonly TagRef[],
    field = 'tags',
    lang: Language = 'en',
  ): Promise<string[]> {
    const problems: FieldProblem[] = [];
    items.forEach((t, i) => {
      if (t.id != null && !isUuid(t.id))
        problems.push({
          field: `${field}[${i}].id`,
          rule: 'unknownEntry',
          args: { list: this.listName(list, lang) },
        });
      else if (t.id == null && !t.text?.trim())
        problems.push({ field: `${field}[${i}].text`, rule: 'isNotEmpty' });
    });
    if (problems.length) throw AppException.validation(problems);
    const inputs = items.map((t) =>
      t.id != null ? { id: t.id.toLowerCase() } : { text: t.text!.trim() },
    );
    const entries = await this.resolveTags(tx, tenantId, list, inputs, field, lang);
    return entries.map((e) => e.id);
  }

  /**
   * The fields of the tenant's contact person template `id`, to copy into an event's contact
   * person (`{ templateId, ...fields }`); null if it is not one.
   */
  async contactPersonTemplate(
    tenantId: string,
    id: string,
    db: Db = this.prisma,
  ): Promise<TemplateFields | null> {
    if (!isUuid(id)) return null;
    return db.contactPersonTemplate.findFirst({
      where: { tenantId, id: id.toLowerCase() },
      select: {
        id: true,
        name: true,
        salutation: true,
        title: true,
        firstname: true,
        lastname: true,
        position: true,
        email: true,
        phone: true,
      },
    });
  }

  /** Whether `id` names a rate of the tax-rates vendor list. */
  isTaxRate(id: unknown): boolean {
    return isTaxRateId(id);
  }

  /** Whether `id` names a platform of the online-meeting-platforms vendor list. */
  isMeetingPlatform(id: unknown): boolean {
    return isMeetingPlatformId(id);
  }

  /**
   * The tiers of the tenant's cancellation condition `id`; null if it is not one. Pass the
   * transaction (`db`) inside an onEventsChanged hook: it sees the tiers just written.
   */
  async cancellationTiers(
    tenantId: string,
    id: string,
    db?: Db,
  ): Promise<CancellationTier[] | null> {
    if (!isUuid(id)) return null;
    const data = await this.entryData.entryData(
      tenantId,
      'CANCELLATION_CONDITIONS',
      id.toLowerCase(),
      db,
    );
    return (data as { tiers?: CancellationTier[] } | null | undefined)?.tiers ?? null;
  }

  /** The fields of the tenant's booking form field set `id`; null if it is not one. */
  async bookingFormFields(
    tenantId: string,
    id: string,
    db?: Db,
  ): Promise<BookingFormField[] | null> {
    if (!isUuid(id)) return null;
    const data = await this.entryData.entryData(
      tenantId,
      'BOOKING_FORM_FIELD_SETS',
      id.toLowerCase(),
      db,
    );
    return (data as { fields?: BookingFormField[] } | null | undefined)?.fields ?? null;
  }

  /**
   * The tenant's settings object, defaults applied (no row yet: all defaults). A default that
   * names an entry or template deleted since the settings were saved reads as null.
   */
  async settingsOf(tenantId: string): Promise<EventSettingsObject> {
    const row = await this.prisma.eventSettings.findUnique({ where: { tenantId } });
    const settings = settingsFromRow(row);
    const d = settings.eventDefaults;
    const refs = DEFAULT_ENTRY_LISTS.map(([key, list]) => ({ field: key, list, id: d[key] }));
    const [gone, template] = await Promise.all([
      refs.some((r) => r.id) ? this.entryProblems(tenantId, refs) : Promise.resolve([]),
      d.contactPersonTemplateId ? this.isTemplate(tenantId, d.contactPersonTemplateId) : true,
    ]);
    for (const p of gone) d[p.field as DefaultEntryKey] = null;
    if (!template) d.contactPersonTemplateId = null;
    if (d.taxRateId && !isTaxRateId(d.taxRateId)) d.taxRateId = null;
    return settings;
  }
}
