import type { Actor } from '@crm/persistence';
import type { Prisma } from '../generated/prisma/client';
import { displayName } from '../people/person.mapper';
import type { PersonRecord } from '../people/people.repository';
import type { MergeChanges } from './dto/merge.dto';
import {
  fillFields,
  joinNotes,
  planCards,
  planHistories,
  planTags,
  unionList,
} from './merge-fields.plan';
import { planRelations, planTouchpoints } from './merge-links.plan';
import type { MergeRecord, MergeWrite } from './merge.repository';

export interface MergePlan {
  write: MergeWrite;
  changes: MergeChanges;
  filledFields: string[];
  noteLength: number;
  noteTooLong: boolean;
  /** The target as it will read after the merge (for the preview). */
  record: PersonRecord;
}

/**
 * Everything a merge of `sourceIds` into `targetId` does, computed from what was read and
 * nothing else: the preview shows it, the merge writes it (reading under lock first).
 */
export function planMerge(
  tenantId: string,
  target: MergeRecord,
  sources: readonly MergeRecord[],
  by: Actor,
): MergePlan {
  const sourceIds = sources.map((s) => s.id);
  const everyone = [target, ...sources];

  const relations = planRelations(
    target.id,
    sourceIds,
    everyone.flatMap((p) => [...p.relations, ...p.relatedBy]),
  );
  const touchpoints = planTouchpoints(
    target.id,
    sourceIds,
    everyone.flatMap((p) => p.touchpoints),
  );
  const cards = planCards(
    target.cards,
    sources.flatMap((s) => s.cards),
  );
  const tags = planTags(
    target.id,
    target.tags,
    sources.flatMap((s) => s.tags),
  );
  const histories = planHistories(
    target.id,
    target.lifecycleHistories,
    sources.flatMap((s) => s.lifecycleHistories),
  );
  const { data: filled, filled: filledFields } = fillFields(target, sources);
  const dates = unionList(
    target.importantDates,
    sources.map((s) => s.importantDates),
    ['text', 'date'],
  );
  const socials = unionList(
    target.socialMedias,
    sources.map((s) => s.socialMedias),
    ['type', 'link'],
  );
  const note = joinNotes(
    target.note?.note ?? null,
    sources.map((s) => ({ name: displayName(s) || s.id, note: s.note?.note ?? null })),
  );

  const write: MergeWrite = {
    tenantId,
    targetId: target.id,
    sourceIds,
    demoteCardIds: cards.demoteIds,
    relations,
    touchpointDrops: touchpoints.drop,
    addTags: tags.added,
    moveHistoryIds: histories.moveIds,
    note: note.joined ? note.note : undefined,
    person: {
      ...filled,
      importantDates: dates.list as Prisma.InputJsonValue,
      socialMedias: socials.list as Prisma.InputJsonValue,
    },
    by,
  };

  const demoted = new Set(cards.demoteIds);
  const now = new Date();
  const record: PersonRecord = {
    ...target,
    ...filled,
    importantDates: dates.list as Prisma.JsonArray,
    socialMedias: socials.list as Prisma.JsonArray,
    note:
      write.note === undefined
        ? target.note
        : {
            personId: target.id,
            tenantId,
            note: write.note,
            createdBy: target.note?.createdBy ?? by.name,
            createdByUserId: target.note?.createdByUserId ?? by.userId,
            dateCreated: target.note?.dateCreated ?? now,
            modifiedBy: by.name,
            modifiedByUserId: by.userId,
            dateModified: now,
          },
    tags: tags.result,
    lifecycleHistories: histories.result,
    cards: everyone
      .flatMap((p) => p.cards)
      .map((c) =>
        demoted.has(c.id)
          ? { ...c, personId: target.id, isFavorite: false, markAsFavorite: false }
          : { ...c, personId: target.id },
      )
      .sort((a, b) => a.dateCreated.getTime() - b.dateCreated.getTime()),
    relations: relations.targetRelations,
    modifiedBy: by.name,
    modifiedByUserId: by.userId,
  };

  return {
    write,
    filledFields,
    noteLength: note.length,
    noteTooLong: note.tooLong,
    record,
    changes: {
      cards: cards.moved,
      relations: relations.moved,
      relationDuplicatesDropped: relations.duplicatesDropped,
      selfRelationsDropped: relations.selfDropped,
      touchpoints: touchpoints.moved,
      touchpointDuplicatesDropped: touchpoints.drop.length,
      documents: sources.reduce((n, s) => n + s._count.documents, 0),
      orgaTags: tags.orga,
      personalities: tags.personalities,
      lifecycleHistories: histories.moveIds.length,
      importantDates: dates.added,
      socialMedias: socials.added,
      notes: note.joined,
    },
  };
}
