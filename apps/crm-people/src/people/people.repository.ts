import { Injectable } from '@nestjs/common';
import type { Actor, NewRecordStamps } from '@crm/persistence';
import { randomUUID } from 'node:crypto';
import { OUTBOX_CHANNEL, PeopleCreatedEvent, Subjects, uuidv7 } from '@crm/messaging';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import type { EntryView } from '@crm/settings-lists';
import type { NewPersonScalars } from './person-changes';
import type { Tx } from '../database/tx';

/** What a person is read with: one query with joins, for one person or a batch. */
export const PERSON_INCLUDE = {
  note: true,
  tags: {
    orderBy: { position: 'asc' },
    include: { entry: { select: { text: true, category: true } } },
  },
  lifecycleHistories: { orderBy: { dateChanged: 'asc' } },
  cards: {
    orderBy: { dateCreated: 'asc' },
    include: { addresses: { orderBy: { position: 'asc' } } },
  },
  relations: { orderBy: { dateCreated: 'asc' } },
} satisfies Prisma.PersonInclude;

export type PersonRecord = Prisma.PersonGetPayload<{ include: typeof PERSON_INCLUDE }>;
export type NoteRecord = Prisma.PersonNoteGetPayload<object>;

type TagKind = 'ORGA' | 'PERSONALITY';

/**
 * The PeopleCreatedEvent of a new person (webhook `person.created`), written by the statement that
 * inserts the person: the person and its event commit together or not at all.
 */
function createdEvent(tenantId: string, personId: string) {
  const payload: PeopleCreatedEvent = { tenantId, personIds: [personId] };
  return {
    id: uuidv7(),
    subject: Subjects.crmPeople.peopleCreated,
    payload: JSON.stringify(payload),
  };
}

/** A tag of a new person named by text: its entry when already known (a system entry). */
export interface NamedTag {
  kind: TagKind;
  list: 'ORGA_TAGS' | 'PERSONALITY_TAGS';
  /** The text as given, trimmed. */
  text: string;
  known?: EntryView;
}

interface CreateNamingTagsResult {
  ok: boolean;
  tags: { ord: number; id: string; text: string | null; category: string | null }[] | null;
  /** The ordinals of the inputs whose tag rows were written, in position order. */
  stored: number[] | null;
  lifecycle: EntryView | null;
}

/** The columns of a new person that create writes (the rest start empty). */
export type NewPersonRow = NewPersonScalars & NewRecordStamps;

/** The columns the creates write, in the order of personValues. */
const PERSON_COLUMNS = Prisma.sql`(
  "id", "tenantId", "salutation", "title", "firstname", "lastname", "birthday",
  "considerBirthYear", "importantDates", "socialMedias", "customerNumber", "employeeStatus",
  "employeeNumber", "lifecycleId", "lifecycleChanged", "createdBy", "modifiedBy",
  "createdByUserId", "modifiedByUserId", "dateCreated", "dateModified")`;

/**
 * The values of a new person for PERSON_COLUMNS. Timestamps are stored as UTC without zone, as
 * Prisma writes them; the ISO text's Z is ignored by the cast on purpose.
 */
function personValues(id: string, data: NewPersonRow): Prisma.Sql {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return Prisma.sql`${id}::uuid, ${data.tenantId}, ${data.salutation}, ${data.title},
    ${data.firstname}, ${data.lastname}, ${iso(data.birthday)}::date, ${data.considerBirthYear},
    ${JSON.stringify(data.importantDates)}::jsonb, ${JSON.stringify(data.socialMedias)}::jsonb,
    ${data.customerNumber}, ${data.employeeStatus}, ${data.employeeNumber},
    ${data.lifecycleId}::uuid, ${iso(data.lifecycleChanged)}::timestamp(3), ${data.createdBy},
    ${data.modifiedBy}, ${data.createdByUserId}::uuid, ${data.modifiedByUserId}::uuid,
    ${iso(data.dateCreated)}::timestamp(3), ${iso(data.dateCreated)}::timestamp(3)`;
}

@Injectable()
export class PeopleRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** `long`: batches of up to 1000 people need more than Prisma's default 5 s. */
  transaction<T>(fn: (tx: Tx) => Promise<T>, long = false): Promise<T> {
    return this.prisma.$transaction(fn, long ? { timeout: 60_000, maxWait: 10_000 } : undefined);
  }

  findById(tenantId: string, id: string, db: Tx | PrismaService = this.prisma) {
    return db.person.findFirst({ where: { tenantId, id }, include: PERSON_INCLUDE });
  }

  /** One query for many ids (federation references, DataLoader batches). */
  findByIds(tenantId: string, ids: string[]) {
    return this.prisma.person.findMany({
      where: { tenantId, id: { in: ids } },
      include: PERSON_INCLUDE,
    });
  }

  /** Which of `ids` are people of the tenant (one query). */
  async existingIds(tenantId: string, ids: string[]): Promise<string[]> {
    const rows = await this.prisma.person.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  exists(tenantId: string, id: string, db: Tx | PrismaService = this.prisma) {
    return db.person.count({ where: { tenantId, id } }).then((n) => n > 0);
  }

  /** The client outside a transaction (a nested write is atomic by itself). */
  get client(): Tx {
    return this.prisma;
  }

  /**
   * Inserts a person with its tags and first lifecycle entry in one SQL statement (atomic by
   * itself, one round trip). Prisma's nested create took five (BEGIN, two inserts, a read back,
   * COMMIT) on the hottest write. Returns the record as a read would, built from what was
   * written: a new person has no note, cards or relations.
   */
  async create(
    db: Tx,
    data: NewPersonRow,
    tags: {
      kind: 'ORGA' | 'PERSONALITY';
      entry: { id: string; text: string; category: string | null };
    }[],
    lifecycle: { lifecycleId: string; dateChanged: Date } | null,
  ): Promise<PersonRecord> {
    const id = randomUUID();
    const tagRows = tags.map((t, position) => ({
      tenantId: data.tenantId,
      personId: id,
      entryId: t.entry.id,
      kind: t.kind,
      position,
    }));
    const history = lifecycle
      ? [{ id: randomUUID(), tenantId: data.tenantId, personId: id, ...lifecycle }]
      : [];
    const event = createdEvent(data.tenantId, id);
    await db.$executeRaw`
      WITH person AS (
        INSERT INTO "Person" ${PERSON_COLUMNS} VALUES (${personValues(id, data)})
      ), tags AS (
        INSERT INTO "PersonTag" ("tenantId", "personId", "entryId", "kind", "position")
        SELECT ${data.tenantId}, ${id}::uuid, t.entry, t.kind::"PersonTagKind", t.position
        FROM unnest(${tagRows.map((t) => t.entryId)}::uuid[], ${tagRows.map((t) => t.kind)}::text[],
          ${tagRows.map((t) => t.position)}::int[]) AS t(entry, kind, position)
      ), history AS (
        INSERT INTO "LifecycleHistory" ("id", "tenantId", "personId", "lifecycleId", "dateChanged")
        SELECT h.id, ${data.tenantId}, ${id}::uuid, h.lifecycle, h.changed
        FROM unnest(${history.map((h) => h.id)}::uuid[], ${history.map((h) => h.lifecycleId)}::uuid[],
          ${history.map((h) => h.dateChanged.toISOString())}::timestamp(3)[]) AS h(id, lifecycle, changed)
      ), outbox AS (
        INSERT INTO "OutboxEvent" ("id", "tenantId", "subject", "payload")
        VALUES (${event.id}::uuid, ${data.tenantId}, ${event.subject}, ${event.payload}::jsonb)
        RETURNING 1
      )
      SELECT pg_notify(${OUTBOX_CHANNEL}, '') FROM outbox`;
    return this.newRecord(id, data, tags, history);
  }

  /** A new person as a read would return it: no note, cards, relations, user or image yet. */
  private newRecord(
    id: string,
    data: NewPersonRow,
    tags: { kind: TagKind; entry: { id: string; text: string; category: string | null } }[],
    history: PersonRecord['lifecycleHistories'],
  ): PersonRecord {
    return {
      ...data,
      id,
      userMail: null,
      userId: null,
      profileImage: null,
      dateModified: data.dateCreated,
      note: null,
      tags: tags.map((t, position) => ({
        tenantId: data.tenantId,
        personId: id,
        entryId: t.entry.id,
        kind: t.kind,
        position,
        entry: { text: t.entry.text, category: t.entry.category },
      })),
      lifecycleHistories: history,
      cards: [],
      relations: [],
    };
  }

  /**
   * The hot create in one round trip: the tags named by text are looked up (ignoring case, as the
   * unique index compares) and the lifecycle checked in the same statement that inserts the
   * person with them. When a text has no entry yet or the lifecycle is not the tenant's, nothing
   * is written and null comes back: the caller takes the long way (create the entries, name the
   * problem). Tags keep input order, the first of each entry per kind, as `create` stores them.
   */
  async createNamingTags(
    db: Tx,
    data: NewPersonRow,
    tags: NamedTag[],
    lifecycle: { lifecycleId: string; dateChanged: Date; known: boolean } | null,
  ): Promise<{ record: PersonRecord; lifecycleEntry: EntryView | null } | null> {
    const id = randomUUID();
    const historyId = randomUUID();
    const event = createdEvent(data.tenantId, id);
    const rows = await db.$queryRaw<{ result: CreateNamingTagsResult }[]>`
      WITH want AS (
        SELECT w.ord, w.list, w.given, w.kind, w.known
        FROM unnest(${tags.map((t) => t.list)}::"PeopleSettingsList"[],
          ${tags.map((t) => t.text)}::text[], ${tags.map((t) => t.kind)}::text[],
          ${tags.map((t) => t.known?.id ?? null)}::uuid[])
          WITH ORDINALITY AS w(list, given, kind, known, ord)
      ), resolved AS (
        SELECT w.ord, w.kind, coalesce(w.known, e."id") AS entry, e."text", e."category"
        FROM want w
        LEFT JOIN "SettingsEntry" e ON w.known IS NULL AND e."tenantId" = ${data.tenantId}
          AND e."list" = w.list AND lower(e."text") = lower(w.given)
      ), lifecycle AS (
        SELECT e."id", e."text", e."color", e."category" FROM "SettingsEntry" e
        WHERE e."tenantId" = ${data.tenantId} AND e."list" = 'LIFECYCLES'
          AND e."id" = ${data.lifecycleId}::uuid
      ), go AS (
        SELECT NOT EXISTS (SELECT FROM resolved WHERE entry IS NULL)
          AND (${lifecycle === null || lifecycle.known} OR EXISTS (SELECT FROM lifecycle)) AS ok
      ), person AS (
        INSERT INTO "Person" ${PERSON_COLUMNS} SELECT ${personValues(id, data)}
        WHERE (SELECT ok FROM go)
        RETURNING "id"
      ), firsts AS (
        SELECT DISTINCT ON (kind, entry) ord, kind, entry FROM resolved ORDER BY kind, entry, ord
      ), tagged AS (
        INSERT INTO "PersonTag" ("tenantId", "personId", "entryId", "kind", "position")
        SELECT ${data.tenantId}, p."id", f.entry, f.kind::"PersonTagKind",
          (row_number() OVER (ORDER BY f.ord) - 1)::int
        FROM firsts f, person p
        RETURNING "entryId", "kind", "position"
      ), history AS (
        INSERT INTO "LifecycleHistory" ("id", "tenantId", "personId", "lifecycleId", "dateChanged")
        SELECT ${historyId}::uuid, ${data.tenantId}, p."id", ${data.lifecycleId}::uuid,
          ${lifecycle?.dateChanged.toISOString() ?? null}::timestamp(3)
        FROM person p WHERE ${lifecycle !== null}
      ), outbox AS (
        INSERT INTO "OutboxEvent" ("id", "tenantId", "subject", "payload")
        SELECT ${event.id}::uuid, ${data.tenantId}, ${event.subject}, ${event.payload}::jsonb
        FROM person p
        RETURNING 1
      ), notified AS (
        SELECT pg_notify(${OUTBOX_CHANNEL}, '') FROM outbox
      )
      SELECT json_build_object(
        'ok', (SELECT ok FROM go),
        'notified', (SELECT count(*) FROM notified),
        'tags', (SELECT json_agg(json_build_object('ord', r.ord, 'id', r.entry, 'text', r."text",
          'category', r."category")) FROM resolved r),
        'stored', (SELECT json_agg(f.ord ORDER BY t."position") FROM tagged t
          JOIN firsts f ON f.kind = t."kind"::text AND f.entry = t."entryId"),
        'lifecycle', (SELECT row_to_json(l) FROM lifecycle l)) AS result`;
    const result = rows[0].result;
    if (!result.ok) return null;
    const byOrd = new Map((result.tags ?? []).map((t) => [Number(t.ord), t]));
    // The tags as the statement stored them, in position order (by their input's ordinal).
    const stored = (result.stored ?? []).map((ord) => {
      const t = tags[Number(ord) - 1];
      const found = byOrd.get(Number(ord))!;
      return {
        kind: t.kind,
        entry: t.known ?? { id: found.id, text: found.text!, category: found.category },
      };
    });
    const history = lifecycle
      ? [
          {
            id: historyId,
            tenantId: data.tenantId,
            personId: id,
            lifecycleId: lifecycle.lifecycleId,
            dateChanged: lifecycle.dateChanged,
          },
        ]
      : [];
    return {
      record: this.newRecord(id, data, stored, history),
      lifecycleEntry: result.lifecycle,
    };
  }

  upsertNote(
    tx: Tx,
    tenantId: string,
    personId: string,
    note: string | null,
    by: Actor,
  ): Promise<NoteRecord> {
    return tx.personNote.upsert({
      where: { personId },
      create: {
        personId,
        tenantId,
        note,
        createdBy: by.name,
        createdByUserId: by.userId,
        modifiedBy: by.name,
        modifiedByUserId: by.userId,
      },
      update: { note, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
  }
}
