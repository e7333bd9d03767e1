import { Injectable } from '@nestjs/common';
import { AppException, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { Person, PeopleNote } from './dto/person.dto';
import type { CreatePersonInput } from './dto/person.input';
import { PeopleRepository, PersonRecord, Tx } from './people.repository';
import { newPersonScalars } from './person-changes';
import { requirePersonId } from './people-input';
import { referencedEntryIds, toNote, toPerson } from './person.mapper';

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
    const by = { name: ctx.integrationName, userId: ctx.callerId };
    const now = new Date();
    const lifecycleId = input.lifecycle?.lifecycleId ?? null;
    const orgaTags = input.orgaTags ?? [];
    const personalities = input.personalities ?? [];

    const write = async (db: Tx) => {
      if (lifecycleId) {
        await this.settings.requireEntry(
          ctx.tenantId,
          'LIFECYCLES',
          lifecycleId,
          'lifecycle.lifecycleId',
          ctx.language,
          db,
        );
      }
      const tags = [
        ...(
          await this.settings.resolveTags(
            db,
            ctx.tenantId,
            'ORGA_TAGS',
            orgaTags,
            'orgaTags',
            ctx.language,
          )
        ).map((entry) => ({ kind: 'ORGA' as const, entry })),
        ...(
          await this.settings.resolveTags(
            db,
            ctx.tenantId,
            'PERSONALITY_TAGS',
            personalities,
            'personalities',
            ctx.language,
          )
        ).map((entry) => ({ kind: 'PERSONALITY' as const, entry })),
      ];
      return this.repo.create(
        db,
        {
          tenantId: ctx.tenantId,
          ...newPersonScalars(input),
          lifecycleId,
          lifecycleChanged: lifecycleId ? now : null,
          dateCreated: now,
          createdBy: by.name,
          createdByUserId: by.userId,
          modifiedBy: by.name,
          modifiedByUserId: by.userId,
        },
        tags,
        lifecycleId ? { lifecycleId, dateChanged: now } : null,
      );
    };

    // A tag given by text alone may have to be created first: that insert and the person's must
    // commit together. Otherwise the person with its tags and history is one nested insert,
    // atomic by itself, and the hot path saves the interactive transaction's round trips.
    const createsTags = [...orgaTags, ...personalities].some((t) => !t.id);
    const record = createsTags ? await this.repo.transaction(write) : await write(this.repo.client);
    return (await this.toDtos(ctx, [record]))[0];
  }

  async updateNote(ctx: RequestContext, id: string, note: string | null): Promise<PeopleNote> {
    requirePersonId(id);
    const saved = await this.repo.transaction(async (tx) => {
      if (!(await this.repo.exists(ctx.tenantId, id, tx)))
        throw AppException.notFound('Person', id);
      return this.repo.upsertNote(tx, ctx.tenantId, id, note, {
        name: ctx.integrationName,
        userId: ctx.callerId,
      });
    });
    return toNote(saved);
  }
}
