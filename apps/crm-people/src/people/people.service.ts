import { Injectable } from '@nestjs/common';
import { actorOf, createdStamps } from '@crm/persistence';
import { AppException, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { Person, PeopleNote } from './dto/person.dto';
import type { CreatePersonInput } from './dto/person.input';
import type { EntryView } from '@crm/settings-lists';
import { NamedTag, NewPersonRow, PeopleRepository, PersonRecord } from './people.repository';
import { newPersonScalars } from './person-changes';
import { requirePersonId } from './people-input';
import { referencedEntryIds, toNote, toPerson } from './person.mapper';
import type { Tx } from '../database/tx';

/** People use cases; REST controller and GraphQL resolver both call these, so rules live here once. */
@Injectable()
export class PeopleService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly settings: SettingsLookupService,
  ) {}

  async toDtos(ctx: RequestContext, records: PersonRecord[]): Promise<Person[]> {
    const entries = await this.settings.anyEntries(
      ctx.tenantId,
      records.flatMap(referencedEntryIds),
      ctx.language,
    );
    return records.map((r) => toPerson(r, entries));
  }

  async get(ctx: RequestContext, id: string): Promise<Person> {
    requirePersonId(id);
    const record = await this.repo.findById(ctx.tenantId, id);
    if (!record) throw AppException.notFound('Person', id);
    return (await this.toDtos(ctx, [record]))[0];
  }

  /** Many people by id in one query, in the order asked; unknown ids give null. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<(Person | null)[]> {
    const valid = ids.filter(isUuid);
    const records = valid.length ? await this.repo.findByIds(ctx.tenantId, valid) : [];
    const dtos = await this.toDtos(ctx, records);
    const byId = new Map(dtos.map((p) => [p.id, p]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async create(ctx: RequestContext, input: CreatePersonInput): Promise<Person> {
    const now = new Date();
    const lifecycleId = input.lifecycle?.lifecycleId ?? null;
    const { tenantId, language } = ctx;

    const row = {
      tenantId,
      ...newPersonScalars(input),
      lifecycleId,
      lifecycleChanged: lifecycleId ? now : null,
      dateCreated: now,
      ...createdStamps(ctx),
    };
    const fast = await this.createNamingTags(ctx, input, row);
    if (fast) return fast;

    // The reads first, outside any transaction and side by side: the lifecycle and the tags
    // given by id must exist, tags given by text are looked up. The first problem in this order
    // answers, as if they had run one after the other.
    const reads = [
      lifecycleId
        ? this.settings.requireEntry(
            tenantId,
            'LIFECYCLES',
            lifecycleId,
            'lifecycle.lifecycleId',
            language,
          )
        : null,
      this.settings.findTags(
        this.repo.client,
        tenantId,
        'ORGA_TAGS',
        input.orgaTags ?? [],
        'orgaTags',
        language,
      ),
      this.settings.findTags(
        this.repo.client,
        tenantId,
        'PERSONALITY_TAGS',
        input.personalities ?? [],
        'personalities',
        language,
      ),
    ] as const;
    await Promise.allSettled(reads);
    await reads[0];
    const orga = await reads[1];
    const personality = await reads[2];

    const write = async (db: Tx) => {
      const tags = [
        ...(await this.settings.createTags(db, orga)).map((entry) => ({
          kind: 'ORGA' as const,
          entry,
        })),
        ...(await this.settings.createTags(db, personality)).map((entry) => ({
          kind: 'PERSONALITY' as const,
          entry,
        })),
      ];
      return this.repo.create(
        db,
        row,
        tags,
        lifecycleId ? { lifecycleId, dateChanged: now } : null,
      );
    };

    // When every tag has its entry, the person with its tags and history is one nested insert,
    // atomic by itself: no interactive transaction, no lock. A tag text new to the tenant is
    // created in the person's transaction, so a person refused by the database leaves no entry
    // behind (the insert takes no lock either: ON CONFLICT DO NOTHING against the unique index
    // ignoring case, see SettingsLookup.createTags).
    const createsTags = orga.toCreate.length > 0 || personality.toCreate.length > 0;
    const record = createsTags ? await this.repo.transaction(write) : await write(this.repo.client);
    return (await this.toDtos(ctx, [record]))[0];
  }

  /**
   * The common create, in one statement: tags named by text only (no ids), looked up inside the
   * insert (see PeopleRepository.createNamingTags). Null when it does not apply or a text or the
   * lifecycle needs the long way (a new tag entry, or a problem to name).
   */
  private async createNamingTags(
    ctx: RequestContext,
    input: CreatePersonInput,
    row: NewPersonRow,
  ): Promise<Person | null> {
    const named = [
      ...(input.orgaTags ?? []).map((t) => ({
        t,
        kind: 'ORGA' as const,
        list: 'ORGA_TAGS' as const,
      })),
      ...(input.personalities ?? []).map((t) => ({
        t,
        kind: 'PERSONALITY' as const,
        list: 'PERSONALITY_TAGS' as const,
      })),
    ];
    if (!named.length || named.some(({ t }) => t.id || !t.text?.trim())) return null;
    const tags: NamedTag[] = named.map(({ t, kind, list }) => ({
      kind,
      list,
      text: t.text!.trim(),
      known: this.settings.systemTag(list, t.text!, ctx.language),
    }));
    const systemLifecycle = row.lifecycleId
      ? this.settings.systemEntryView('LIFECYCLES', row.lifecycleId, ctx.language)
      : undefined;
    const lifecycle = row.lifecycleId
      ? { lifecycleId: row.lifecycleId, dateChanged: row.dateCreated, known: !!systemLifecycle }
      : null;
    const created = await this.repo.createNamingTags(this.repo.client, row, tags, lifecycle);
    if (!created) return null;
    const entries = new Map<string, EntryView>();
    const lifecycleEntry = systemLifecycle ?? created.lifecycleEntry;
    if (lifecycleEntry) entries.set(lifecycleEntry.id, lifecycleEntry);
    return toPerson(created.record, entries);
  }

  async updateNote(ctx: RequestContext, id: string, note: string | null): Promise<PeopleNote> {
    requirePersonId(id);
    const saved = await this.repo.transaction(async (tx) => {
      if (!(await this.repo.exists(ctx.tenantId, id, tx)))
        throw AppException.notFound('Person', id);
      return this.repo.upsertNote(tx, ctx.tenantId, id, note, actorOf(ctx));
    });
    return toNote(saved);
  }
}
