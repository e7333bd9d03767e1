import { headers as natsHeaders } from 'nats';
import { randomUUID } from 'node:crypto';
import { PeopleDeletedEvent, PeopleMergedEvent, Subjects } from '@crm/messaging';
import { LockProbe, tracked, until } from '@crm/testing';
import { ACCOUNT_MANAGER, KEY_ACCOUNT_MANAGER, ManagedByKit } from './test/managed-by-test-kit';

// A person deleted or merged away between a managed-by write's NATS check and its commit leaves
// no relation pointing at it: the people.deleted / people.merged consumers and the writes meet on
// the person's advisory lock and tombstone (@crm/persistence foreign-references.ts). Both bad
// orders are forced by holding a row lock one side needs (a connection of the test's own), then
// 50 writes race a deletion. Each wait is for a condition seen in pg_stat_activity or the database.

jest.setTimeout(180_000);

let kit: ManagedByKit;
let probe: LockProbe;

beforeAll(async () => {
  kit = await ManagedByKit.start('crm_companies_it_managed_by_race');
  probe = await LockProbe.connect(kit.svc.databaseUrl);
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await kit?.close();
}, 30_000);

const base = (companyId: string) => `/companies/${companyId}/managed-by`;
const yes = (v: boolean) => v;

async function publish(subject: string, event: PeopleDeletedEvent | PeopleMergedEvent) {
  const id = randomUUID();
  const h = natsHeaders();
  h.set('Crm-Tenant-Id', event.tenantId);
  for (let attempt = 0; ; attempt++) {
    try {
      await kit.nc.jetstream().publish(subject, JSON.stringify(event), { msgID: id, headers: h });
      return id;
    } catch (err) {
      // the service creates the stream when it connects
      if (attempt > 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const applied = async (eventId: string) =>
  (await probe.count(`SELECT count(*)::int FROM "ProcessedEvent" WHERE id = $1::uuid`, [eventId])) >
  0;

/** Relations of the tenant naming the person. */
const relationsOf = (personId: string) =>
  probe.count(
    `SELECT count(*)::int FROM "CompanyManager" WHERE "tenantId" = $1 AND "personId" = $2::uuid`,
    [kit.A, personId],
  );

/** A relation written straight into the database. */
async function relation(companyId: string, personId: string, managerRoleId = ACCOUNT_MANAGER) {
  const row = await kit.db.companyManager.create({
    data: { tenantId: kit.A, companyId, personId, managerRoleId },
    select: { id: true },
  });
  return row.id;
}

const holdCompany = (companyId: string) =>
  probe.holdRows(`SELECT id FROM "Company" WHERE id = $1::uuid`, [companyId]);
const holdRelation = (id: string) =>
  probe.holdRows(`SELECT id FROM "CompanyManager" WHERE id = $1::uuid`, [id]);

/**
 * Publishes the event while a write checked before it is parked on its company's row (held by
 * the test), so that without the shared lock the consumer commits first; then lets the write go.
 */
async function eventDuringParkedWrite(
  companyId: string,
  body: Record<string, unknown>,
  subject: string,
  event: PeopleDeletedEvent | PeopleMergedEvent,
) {
  const release = await holdCompany(companyId);
  const write = tracked(kit.call('POST', base(companyId), body));
  await until(
    'the write waits for the company',
    () => probe.waiting('row'),
    (n) => n >= 1,
  );
  const eventId = await publish(subject, event);
  await until(
    'the consumer is applied or waits for the write',
    async () => (await applied(eventId)) || (await probe.waiting('advisory')) >= 1,
    yes,
  );
  await release();
  await write.done;
  await until('the event is applied', () => applied(eventId), yes);
  return write.answer!;
}

/**
 * Parks the consumer of the event on the row of `held` (it has taken the person's lock), then
 * starts the writes; without the shared lock they commit while it waits. Then lets it go.
 */
async function writesDuringParkedEvent(
  held: string,
  subject: string,
  event: PeopleDeletedEvent | PeopleMergedEvent,
  writes: (() => ReturnType<ManagedByKit['call']>)[],
) {
  const release = await holdRelation(held);
  const eventId = await publish(subject, event);
  await until(
    'the consumer waits for the relation',
    () => probe.waiting('row'),
    (n) => n >= 1,
  );
  const started = writes.map((w) => tracked(w()));
  await until(
    'each write answered or waits for the consumer',
    async () => started.filter((w) => !w.answer).length <= (await probe.waiting('advisory')),
    yes,
  );
  await release();
  const answers = await Promise.all(started.map((w) => w.done));
  await until('the event is applied', () => applied(eventId), yes);
  return answers;
}

describe('people.deleted racing managed-by writes', () => {
  it('a relation checked before the deletion and committed after its consumer ran is removed', async () => {
    const company = await kit.company();
    const person = kit.people.person(kit.A);
    const answer = await eventDuringParkedWrite(
      company,
      { personId: person, managerRoleId: ACCOUNT_MANAGER },
      Subjects.crmPeople.peopleDeleted,
      { tenantId: kit.A, personIds: [person] },
    );
    expect(answer.status).toBe(201);
    expect(await relationsOf(person)).toBe(0);
  });

  it('writes checked before the deletion and reaching their transaction after the consumer are refused', async () => {
    const person = kit.people.person(kit.A);
    const other = kit.people.person(kit.A);
    const [c0, c1, c2] = [await kit.company(), await kit.company(), await kit.company()];
    const held = await relation(c0, person);
    const toMove = await relation(c2, other);
    // crm-people answered "exists" before its delete committed: the checks pass
    const [created, updated] = await writesDuringParkedEvent(
      held,
      Subjects.crmPeople.peopleDeleted,
      { tenantId: kit.A, personIds: [person] },
      [
        () => kit.call('POST', base(c1), { personId: person, managerRoleId: ACCOUNT_MANAGER }),
        () => kit.call('PUT', `${base(c2)}/${toMove}`, { personId: person }),
      ],
    );
    expect(created.status).toBe(404);
    expect(created.body.errors).toEqual([
      expect.objectContaining({ field: 'personId', rule: 'personNotFound' }),
    ]);
    expect(updated.status).toBe(404);
    expect(await relationsOf(person)).toBe(0);
    expect((await kit.rows(c2)).map((r) => r.personId)).toEqual([other]);
  });

  it('50 writes racing the deletion: each succeeded and was removed, or was refused', async () => {
    const person = kit.people.person(kit.A);
    // one company: the writes queue for its row inside their transactions, long after their checks
    const company = await kit.company();
    const roles = Array.from({ length: 50 }, () => kit.people.role(kit.A));
    let eventId: string | null = null;
    let answered = 0;
    const answers = await Promise.all(
      roles.map((managerRoleId) =>
        kit.call('POST', base(company), { personId: person, managerRoleId }).then((a) => {
          // crm-people deletes the person while most writes are still under way
          if (++answered === 5) {
            kit.people.forget(kit.A, person);
            void publish(Subjects.crmPeople.peopleDeleted, {
              tenantId: kit.A,
              personIds: [person],
            }).then((id) => (eventId = id));
          }
          return a;
        }),
      ),
    );
    await until(
      'the deletion is published',
      async () => eventId,
      (id) => id !== null,
    );
    await until('the event is applied', () => applied(eventId!), yes);
    for (const a of answers) expect([201, 404]).toContain(a.status);
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(0);
    expect(await relationsOf(person)).toBe(0);
  });
});

describe('people.merged racing managed-by writes', () => {
  it('a relation to a source committed after the merge was applied moves to the target', async () => {
    const company = await kit.company();
    const [target, source] = [kit.people.person(kit.A), kit.people.person(kit.A)];
    const answer = await eventDuringParkedWrite(
      company,
      { personId: source, managerRoleId: ACCOUNT_MANAGER },
      Subjects.crmPeople.peopleMerged,
      { tenantId: kit.A, targetId: target, sourceIds: [source] },
    );
    expect(answer.status).toBe(201);
    expect(await relationsOf(source)).toBe(0);
    expect((await kit.rows(company)).map((r) => r.personId)).toEqual([target]);
  });

  it('a write naming a source reaching its transaction after the consumer is refused, not redirected', async () => {
    const [target, source] = [kit.people.person(kit.A), kit.people.person(kit.A)];
    const [c0, c1] = [await kit.company(), await kit.company()];
    const held = await relation(c0, source, KEY_ACCOUNT_MANAGER);
    const [created] = await writesDuringParkedEvent(
      held,
      Subjects.crmPeople.peopleMerged,
      { tenantId: kit.A, targetId: target, sourceIds: [source] },
      [() => kit.call('POST', base(c1), { personId: source, managerRoleId: ACCOUNT_MANAGER })],
    );
    expect(created.status).toBe(404);
    expect(await relationsOf(source)).toBe(0);
    expect(await kit.rows(c1)).toEqual([]);
    expect((await kit.rows(c0)).map((r) => r.personId)).toEqual([target]);
  });

  it('a merge into a person whose deletion was applied first removes the sources’ relations', async () => {
    const [target, source] = [kit.people.person(kit.A), kit.people.person(kit.A)];
    const company = await kit.company();
    await relation(company, source);
    const deleted = await publish(Subjects.crmPeople.peopleDeleted, {
      tenantId: kit.A,
      personIds: [target],
    });
    await until('the deletion is applied', () => applied(deleted), yes);
    const merged = await publish(Subjects.crmPeople.peopleMerged, {
      tenantId: kit.A,
      targetId: target,
      sourceIds: [source],
    });
    await until('the merge is applied', () => applied(merged), yes);
    expect(await kit.rows(company)).toEqual([]);
  });
});
