import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import type { FieldProblem } from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { PageQuery } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import {
  CreateEntryInput,
  SettingsEntryData,
  SettingsReads,
  SettingsWrites,
  UpdateEntryInput,
} from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import type { EventSettingsList } from '../generated/prisma/client';
import { entryDataProblems } from './dto/entry-data.rules';
import { CreateEventSettingsEntryInput } from './dto/settings-entry.input';
import type { EventSettingsEntry } from './dto/settings-entry.output';
import type { Tx } from '../database/tx';
import { EventSettingsRepository, eventSettingsStore, Db } from './event-settings.repository';
import { EVENT_SETTINGS } from './settings-lists';

/** Entries as ES4/ES5 answer them: the engine's, with the entry's `data` (null if none). */
async function withData(
  repo: EventSettingsRepository,
  tenantId: string,
  entries: SettingsEntryData[],
): Promise<EventSettingsEntry[]> {
  const data = await repo.dataOf(
    tenantId,
    entries.filter((e) => !e.isSystem).map((e) => e.id),
  );
  return entries.map((e) => ({ ...e, data: data.get(e.id) ?? null }));
}

/** Reads of the tenant lists (ES4, by the engine), with each entry's data: one more query a page. */
@Injectable()
export class EventSettingsListReads extends SettingsReads<EventSettingsList, Db> {
  constructor(
    prisma: PrismaService,
    i18n: I18nService,
    private readonly references: EventSettingsRepository,
  ) {
    super(eventSettingsStore(prisma), EVENT_SETTINGS, i18n);
  }

  async page(
    ctx: RequestContext,
    slug: string,
    query: PageQuery,
  ): Promise<Paged<EventSettingsEntry>> {
    const page = await this.list(ctx, slug, query);
    return paged(await withData(this.references, ctx.tenantId, page.items), page.totalResults);
  }
}

/**
 * Writes of the tenant lists (ES5, by the engine), each in one transaction. An entry in use is
 * refused with 409 naming how many events use it, unless `force`. The `data` of booking form
 * field sets and cancellation conditions is checked here (entry-data.rules.ts).
 */
@Injectable()
export class EventSettingsListWrites extends SettingsWrites<EventSettingsList, Db, number> {
  constructor(
    prisma: PrismaService,
    i18n: I18nService,
    private readonly entryData: EventSettingsRepository,
  ) {
    super(
      eventSettingsStore(prisma),
      EVENT_SETTINGS,
      i18n,
      entryData,
      CreateEventSettingsEntryInput,
    );
  }

  protected override dataProblems(
    list: EventSettingsList,
    input: CreateEntryInput | UpdateEntryInput,
    path: string,
    create: boolean,
    lang: Language,
  ): FieldProblem[] {
    return entryDataProblems(list, input.data, path, create, this.listName(list, lang));
  }

  protected override async afterUpdate(
    tx: Db,
    tenantId: string,
    list: EventSettingsList,
    id: string,
    input: UpdateEntryInput,
  ): Promise<void> {
    if (
      (list === 'CANCELLATION_CONDITIONS' || list === 'BOOKING_FORM_FIELD_SETS') &&
      input.data !== undefined
    )
      await this.entryData.snapshotDataChanged(tx as Tx, tenantId, list, id);
  }

  async createEntries(
    ctx: RequestContext,
    slug: string,
    raw: unknown,
  ): Promise<EventSettingsEntry | EventSettingsEntry[]> {
    const created = await this.create(ctx, slug, raw);
    const all = await withData(
      this.entryData,
      ctx.tenantId,
      Array.isArray(created) ? created : [created],
    );
    return Array.isArray(created) ? all : all[0];
  }

  async updateEntry(
    ctx: RequestContext,
    slug: string,
    id: string,
    input: UpdateEntryInput,
  ): Promise<EventSettingsEntry> {
    const saved = await this.update(ctx, slug, id, input);
    return (await withData(this.entryData, ctx.tenantId, [saved]))[0];
  }

  async deleteEntries(
    ctx: RequestContext,
    slug: string,
    ids: string[],
    force: boolean | undefined,
    field: 'id' | 'ids',
  ): Promise<EventSettingsEntry[]> {
    // the rows are gone: their data is not read again (the answer says what was deleted)
    const deleted = await this.delete(ctx, slug, ids, force, field);
    return deleted.map((e) => ({ ...e, data: null }));
  }
}
