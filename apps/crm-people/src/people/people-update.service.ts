import { Injectable } from '@nestjs/common';
import { modifiedStamps } from '@crm/persistence';
import { AppException, checkItems, fieldPath, throwIfProblems, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { Prisma } from '../generated/prisma/client';
import { UpdatePersonItemInput } from './dto/people-batch.input';
import type { Person } from './dto/person.dto';
import { CreatePersonInput, EmbeddedPersonalityInput, EmbeddedTagInput } from './dto/person.input';
import { PeopleChecks } from './people-checks.service';
import { requirePersonId } from './people-input';
import { PeopleWriteRepository, TagKind } from './people-write.repository';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';
import { isEmpty, personChanges } from './person-changes';

interface UpdateItem {
  id: string;
  input: CreatePersonInput;
  /** Where the item's fields are reported: `` for one person, `[3]` in a batch. */
  prefix: string;
}

/** Tags per person, kept at most this many (as on create). */
const TAGS_MAX = 200;

/**
 * Updates of people: P5 (one), P8 (batch), P12/P13 (tag lists), P14 (lifecycle). All of them
 * are the same write: absent fields stay, null clears, a lifecycle change is appended to the
 * history (the same lifecycle again adds nothing), modifiedBy records the caller.
 */
@Injectable()
export class PeopleUpdateService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly writes: PeopleWriteRepository,
    private readonly checks: PeopleChecks,
    private readonly people: PeopleService,
  ) {}

  /** P5 */
  async update(ctx: RequestContext, id: string, input: CreatePersonInput): Promise<Person> {
    requirePersonId(id);
    throwIfProblems(await this.checks.entryProblems(ctx, [{ prefix: '', input }]));
    return (await this.apply(ctx, [{ id: id.toLowerCase(), input, prefix: '' }], false))[0];
  }

  /** P8: all or nothing; every invalid item is reported by index before anything is written. */
  async updateMany(ctx: RequestContext, raw: unknown): Promise<Person[]> {
    const { value: items, problems } = checkItems(UpdatePersonItemInput, raw);
    if (items.length) {
      const seen = new Set<string>();
      items.forEach((it, i) => {
        if (!isUuid(it.id)) return;
        const id = it.id.toLowerCase();
        if (seen.has(id)) problems.push(this.checks.problem(`[${i}].id`, 'duplicateId', ctx));
        seen.add(id);
      });
      problems.push(
        ...(await this.checks.entryProblems(
          ctx,
          items.map((input, i) => ({ prefix: `[${i}]`, input })),
        )),
        ...(await this.checks.unknownPeople(
          ctx,
          items.map((it, i) => ({ field: `[${i}].id`, id: it.id })),
        )),
      );
    }
    throwIfProblems(problems);
    return this.apply(
      ctx,
      items.map((input, i) => ({ id: input.id.toLowerCase(), input, prefix: `[${i}]` })),
      true,
    );
  }

  /** P12, P13: the body is the whole new list of tags (by id or by text). */
  async replaceTags(ctx: RequestContext, id: string, kind: TagKind, raw: unknown): Promise<Person> {
    requirePersonId(id);
    const cls = kind === 'ORGA' ? EmbeddedTagInput : EmbeddedPersonalityInput;
    // [] is allowed: it clears the list.
    const { value: tags, problems } = checkItems(cls, raw, TAGS_MAX, 0);
    problems.push(
      ...(await this.checks.unknownEntries(
        ctx,
        PeopleChecks.tagRefs(kind === 'ORGA' ? 'ORGA_TAGS' : 'PERSONALITY_TAGS', tags, (i) =>
          fieldPath(`[${i}]`, 'id'),
        ),
      )),
    );
    throwIfProblems(problems);
    const input: CreatePersonInput = kind === 'ORGA' ? { orgaTags: tags } : { personalities: tags };
    return (await this.apply(ctx, [{ id: id.toLowerCase(), input, prefix: '' }], false))[0];
  }

  /** P14: null clears the lifecycle. */
  async updateLifecycle(
    ctx: RequestContext,
    id: string,
    lifecycleId: string | null,
  ): Promise<Person> {
    requirePersonId(id);
    if (lifecycleId !== null && !isUuid(lifecycleId))
      throw AppException.validation([this.checks.problem('lifecycleId', 'isUuid', ctx)]);
    if (lifecycleId) {
      throwIfProblems(
        await this.checks.unknownEntries(ctx, [
          { list: 'LIFECYCLES', field: 'lifecycleId', id: lifecycleId },
        ]),
      );
    }
    const input: CreatePersonInput = { lifecycle: { lifecycleId } };
    return (await this.apply(ctx, [{ id: id.toLowerCase(), input, prefix: '' }], false))[0];
  }

  /** Writes checked updates in one transaction, then reads the people back in one query. */
  private async apply(ctx: RequestContext, items: UpdateItem[], batch: boolean): Promise<Person[]> {
    const { tenantId } = ctx;
    const ids = items.map((i) => i.id);
    await this.repo.transaction(async (tx) => {
      const current = await this.writes.lock(tx, tenantId, ids);
      const missing = items.filter((i) => !current.has(i.id));
      if (missing.length && !batch) throw AppException.notFound('Person', items[0].id);
      if (missing.length) {
        // Deleted since the check, in another transaction: still reported by index.
        throw AppException.validation(
          missing.map((m) => this.checks.problem(fieldPath(m.prefix, 'id'), 'unknownPerson', ctx)),
        );
      }
      const now = new Date();
      const histories: {
        tenantId: string;
        personId: string;
        lifecycleId: string;
        dateChanged: Date;
      }[] = [];
      const tags: Record<TagKind, Map<string, string[]>> = {
        ORGA: new Map(),
        PERSONALITY: new Map(),
      };
      // Tags given by text are found or created once per text for the whole batch, in one go.
      const cache = new Map<string, string>();
      for (const kind of ['ORGA', 'PERSONALITY'] as const) {
        const given = items.flatMap(
          (item) => (kind === 'ORGA' ? item.input.orgaTags : item.input.personalities) ?? [],
        );
        await this.checks.preloadTagTexts(tx, ctx, kind, given, cache);
      }
      for (const item of items) {
        const c = personChanges(item.input);
        if (isEmpty(c)) continue;
        const data: Prisma.PersonUncheckedUpdateManyInput = { ...c.scalars };
        if (c.lifecycleId !== undefined && c.lifecycleId !== current.get(item.id)) {
          data.lifecycleId = c.lifecycleId;
          data.lifecycleChanged = c.lifecycleId ? now : null;
          if (c.lifecycleId)
            histories.push({
              tenantId,
              personId: item.id,
              lifecycleId: c.lifecycleId,
              dateChanged: now,
            });
        }
        for (const [kind, list, name] of [
          ['ORGA', c.orgaTags, 'orgaTags'],
          ['PERSONALITY', c.personalities, 'personalities'],
        ] as const) {
          if (!list) continue;
          const field = fieldPath(item.prefix, name);
          tags[kind].set(item.id, await this.checks.tagEntryIds(tx, ctx, kind, list, field, cache));
        }
        // The same lifecycle again, and nothing else: the person is not modified at all.
        if (Object.keys(data).length === 0 && !c.orgaTags && !c.personalities) continue;
        await this.writes.update(tx, tenantId, item.id, {
          ...data,
          ...modifiedStamps(ctx),
        });
      }
      await this.writes.addHistories(tx, histories);
      await this.writes.replaceTags(tx, tenantId, 'ORGA', tags.ORGA);
      await this.writes.replaceTags(tx, tenantId, 'PERSONALITY', tags.PERSONALITY);
    }, batch);
    const byId = new Map(
      (await this.people.toDtos(ctx, await this.repo.findByIds(tenantId, ids))).map((p) => [
        p.id,
        p,
      ]),
    );
    return ids.map((id) => byId.get(id)!);
  }
}
