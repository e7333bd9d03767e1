import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createdStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import type { Prisma } from '../generated/prisma/client';
import type { Person } from './dto/person.dto';
import { CreatePersonInput } from './dto/person.input';
import { PeopleChecks } from './people-checks.service';
import { checkItems, throwIfProblems } from '@crm/errors';
import { PeopleWriteRepository, TagKind } from './people-write.repository';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';
import { newPersonScalars } from './person-changes';

/** P9: up to 1000 people in one transaction; every invalid item is reported by index first. */
@Injectable()
export class PeopleBatchCreateService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly writes: PeopleWriteRepository,
    private readonly checks: PeopleChecks,
    private readonly people: PeopleService,
  ) {}

  async createMany(ctx: RequestContext, raw: unknown): Promise<Person[]> {
    const { value: items, problems } = checkItems(CreatePersonInput, raw);
    if (items.length) {
      problems.push(
        ...(await this.checks.entryProblems(
          ctx,
          items.map((input, i) => ({ prefix: `[${i}]`, input })),
        )),
      );
    }
    throwIfProblems(problems);

    const { tenantId } = ctx;
    const now = new Date();
    const ids = items.map(() => randomUUID());
    await this.repo.transaction(async (tx) => {
      // Tags given by text are found or created once per text for the whole batch, in one go.
      const cache = new Map<string, string>();
      const tags: Record<TagKind, Map<string, string[]>> = {
        ORGA: new Map(),
        PERSONALITY: new Map(),
      };
      for (const kind of ['ORGA', 'PERSONALITY'] as const) {
        const given = items.flatMap(
          (input) => (kind === 'ORGA' ? input.orgaTags : input.personalities) ?? [],
        );
        await this.checks.preloadTagTexts(tx, ctx, kind, given, cache);
      }
      for (const [i, input] of items.entries()) {
        for (const [kind, list, name] of [
          ['ORGA', input.orgaTags, 'orgaTags'],
          ['PERSONALITY', input.personalities, 'personalities'],
        ] as const) {
          if (!list?.length) continue;
          const entryIds = await this.checks.tagEntryIds(
            tx,
            ctx,
            kind,
            list,
            `[${i}].${name}`,
            cache,
          );
          tags[kind].set(ids[i], entryIds);
        }
      }
      const rows: Prisma.PersonCreateManyInput[] = items.map((input, i) => {
        const lifecycleId = input.lifecycle?.lifecycleId ?? null;
        return {
          id: ids[i],
          tenantId,
          ...newPersonScalars(input),
          lifecycleId,
          lifecycleChanged: lifecycleId ? now : null,
          dateCreated: now,
          dateModified: now,
          ...createdStamps(ctx),
        };
      });
      await this.writes.createPeople(tx, tenantId, rows);
      await this.writes.addHistories(
        tx,
        rows.flatMap((r) =>
          r.lifecycleId
            ? [{ tenantId, personId: r.id!, lifecycleId: r.lifecycleId, dateChanged: now }]
            : [],
        ),
      );
      await this.writes.addTags(tx, tenantId, 'ORGA', tags.ORGA);
      await this.writes.addTags(tx, tenantId, 'PERSONALITY', tags.PERSONALITY);
    }, true);

    const byId = new Map(
      (await this.people.toDtos(ctx, await this.repo.findByIds(tenantId, ids))).map((p) => [
        p.id,
        p,
      ]),
    );
    return ids.map((id) => byId.get(id)!);
  }
}
