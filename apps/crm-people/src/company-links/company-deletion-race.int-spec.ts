import { connect, headers as natsHeaders, NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { CompaniesDeletedEvent, Subjects } from '@crm/messaging';
import { LockProbe, NATS_TEST_URL, tracked, until } from '@crm/testing';
import { CardTestKit } from '../business-cards/test/card-test-fixtures';
import { CompaniesStandIn } from '../test/companies-stand-in';

// A company deleted between a card's or touchpoint's NATS check and its commit leaves no
// dangling company id: the companies.deleted consumer and the writes meet on the company's
// advisory lock and its tombstone (@crm/persistence foreign-references.ts). Both bad orders are
// forced by holding a row lock one side needs (a connection of the test's own), then 50 writes
// race a deletion. Each wait is for a condition seen in pg_stat_activity or the database.

jest.setTimeout(180_000);

let kit: CardTestKit;
let stub: CompaniesStandIn;
let nc: NatsConnection;
let probe: LockProbe;

beforeAll(async () => {
  kit = await CardTestKit.start('crm_people_it_company_race');
  stub = await CompaniesStandIn.connect();
  await stub.start();
  nc = await connect({ servers: NATS_TEST_URL, name: 'crm-companies-relay-stand-in' });
  probe = await LockProbe.connect(kit.svc.databaseUrl);
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await nc?.close();
  await stub?.close();
  await kit?.close();
}, 30_000);

/** crm-companies deleted the company: its check says so from now on, its relay publishes. */
async function deleteCompany(tenantId: string, companyId: string): Promise<string> {
  stub.remove(tenantId, companyId);
  return publishDeleted({ tenantId, companyIds: [companyId] });
}

async function publishDeleted(event: CompaniesDeletedEvent): Promise<string> {
  const id = randomUUID();
  const h = natsHeaders();
  h.set('Crm-Tenant-Id', event.tenantId);
  for (let attempt = 0; ; attempt++) {
    try {
      await nc.jetstream().publish(Subjects.crmCompanies.companiesDeleted, JSON.stringify(event), {
        msgID: id,
        headers: h,
      });
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

/** Cards and touchpoints of the tenant still pointing at the company. */
const dangling = (tenantId: string, companyId: string) =>
  probe.count(
    `SELECT (SELECT count(*) FROM "BusinessCard" WHERE "tenantId" = $1 AND "companyId" = $2::uuid)
          + (SELECT count(*) FROM "Touchpoint" WHERE "tenantId" = $1 AND "companyId" = $2::uuid)`,
    [tenantId, companyId],
  );

const yes = (v: boolean) => v;

const touchpointBody = (personId: string, companyId: string) => ({
  type: 'call',
  subject: 'Call',
  start: '2026-01-10T09:00:00Z',
  personIds: [personId],
  companyId,
});

describe('companies.deleted racing card and touchpoint writes', () => {
  it('a write checked before the deletion and committed after its consumer ran is disconnected', async () => {
    const company = stub.add(kit.A, randomUUID());
    const personId = await kit.person();
    // the write passes its check, opens its transaction, and waits for the person's row
    const release = await probe.holdRows(`SELECT id FROM "Person" WHERE id = $1::uuid`, [personId]);
    const write = tracked(
      kit.call('POST', `/people/${personId}/business-cards`, {
        business: 'Acme',
        companyId: company,
      }),
    );
    await until(
      'the card write waits for the person',
      () => probe.waiting('row'),
      (n) => n >= 1,
    );
    expect(stub.asked.at(-1)).toEqual({ tenantId: kit.A, companyId: company });

    const eventId = await deleteCompany(kit.A, company);
    // without the shared lock the consumer commits now, before the card
    await until(
      'the consumer is applied or waits for the write',
      async () => (await applied(eventId)) || (await probe.waiting('advisory')) >= 1,
      yes,
    );
    await release();
    await write.done;
    await until('the event is applied', () => applied(eventId), yes);

    expect(write.answer!.status).toBe(201);
    const card = await kit.call(
      'GET',
      `/people/${personId}/business-cards/${write.answer!.body.data.id}`,
    );
    expect(card.body.data.companyId).toBeNull();
    expect(await dangling(kit.A, company)).toBe(0);
  });

  it('a write checked before the deletion and reaching its transaction after the consumer is refused', async () => {
    const company = stub.add(kit.A, randomUUID());
    const owner = await kit.person();
    const connected = await kit.card(owner, { business: 'Acme', companyId: company });
    // the consumer takes the company's lock, then waits for this card's row to disconnect it
    const release = await probe.holdRows(`SELECT id FROM "BusinessCard" WHERE id = $1::uuid`, [
      connected.id,
    ]);
    const eventId = await publishDeleted({ tenantId: kit.A, companyIds: [company] });
    await until(
      'the consumer waits for the card',
      () => probe.waiting('row'),
      (n) => n >= 1,
    );

    // crm-companies answered "exists" before its delete committed: the checks pass
    const personId = await kit.person();
    const card = tracked(
      kit.call('POST', `/people/${personId}/business-cards`, {
        business: 'Acme',
        companyId: company,
      }),
    );
    const other = await kit.card(personId, { business: 'Other' });
    const connect = tracked(
      kit.call('PUT', `/people/${personId}/business-cards/${other.id}/company`, {
        companyId: company,
      }),
    );
    const touchpoint = tracked(kit.call('POST', '/touchpoints', touchpointBody(personId, company)));
    const writes = [card, connect, touchpoint];
    // without the shared lock they commit now, while the consumer's update is under way
    await until(
      'each write answered or waits for the consumer',
      async () => writes.filter((w) => !w.answer).length <= (await probe.waiting('advisory')),
      yes,
    );
    await release();
    await Promise.all(writes.map((w) => w.done));
    await until('the event is applied', () => applied(eventId), yes);

    expect(card.answer!.status).toBe(404);
    expect(card.answer!.body.message).toContain(company);
    expect(connect.answer!.status).toBe(404);
    expect(touchpoint.answer!.status).toBe(400);
    expect(touchpoint.answer!.body.errors).toEqual([
      expect.objectContaining({ field: 'companyId', rule: 'unknownCompany' }),
    ]);
    expect(await dangling(kit.A, company)).toBe(0);
    expect(
      await probe.count(
        `SELECT count(*)::int AS n FROM "BusinessCard" WHERE "personId" = $1::uuid`,
        [personId],
      ),
    ).toBe(1); // `other`, not connected
  });

  it('50 writes racing the deletion: each succeeded and was disconnected, or was refused', async () => {
    const company = stub.add(kit.A, randomUUID());
    const people = await Promise.all(Array.from({ length: 5 }, () => kit.person()));
    const blank = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => ({
        personId: people[i % 5],
        id: (await kit.card(people[i % 5], { business: `Blank ${i}` })).id as string,
      })),
    );
    const kinds = Array.from({ length: 50 }, (_, i) => i % 5);
    let eventId: string | null = null;
    let answered = 0;
    const writes = kinds.map((k, i) => {
      const personId = people[i % 5];
      const p =
        k === 0
          ? kit.call(
              'PUT',
              `/people/${blank[i / 5].personId}/business-cards/${blank[i / 5].id}/company`,
              { companyId: company },
            )
          : k <= 2
            ? kit.call('POST', `/people/${personId}/business-cards`, {
                business: `Race ${i}`,
                companyId: company,
              })
            : kit.call('POST', '/touchpoints', touchpointBody(personId, company));
      return p.then((a) => {
        // crm-companies deletes the company while most writes are still under way
        if (++answered === 5) void deleteCompany(kit.A, company).then((id) => (eventId = id));
        return a;
      });
    });
    const answers = await Promise.all(writes);
    await until(
      'the deletion is published',
      async () => eventId,
      (id) => id !== null,
    );
    await until('the event is applied', () => applied(eventId!), yes);

    const refused = { card: 404, touchpoint: 400 };
    const outcome = answers.map((a, i) => {
      const kind = kinds[i] >= 3 ? 'touchpoint' : 'card';
      if (a.status === refused[kind]) return 'refused';
      expect([200, 201]).toContain(a.status);
      return 'written';
    });
    expect(outcome.length).toBe(50);
    expect(await dangling(kit.A, company)).toBe(0);
    // every write that succeeded exists, disconnected; every refused one wrote nothing
    const connected = blank.filter((_, j) => answers[j * 5].status === 200).map((c) => c.id);
    expect(
      await probe.count(
        `SELECT count(*)::int AS n FROM "BusinessCard" WHERE id = ANY($1::uuid[]) AND "companyId" IS NULL`,
        [connected],
      ),
    ).toBe(connected.length);
    const cardsCreated = answers.filter((_, i) => kinds[i] === 1 || kinds[i] === 2);
    const cardIds = cardsCreated.filter((a) => a.status === 201).map((a) => a.body.data.id);
    expect(
      await probe.count(
        `SELECT count(*)::int AS n FROM "BusinessCard" WHERE "tenantId" = $1 AND business LIKE 'Race %'`,
        [kit.A],
      ),
    ).toBe(cardIds.length);
    const tpIds = answers
      .filter((a, i) => kinds[i] >= 3 && a.status === 201)
      .map((a) => a.body.data.id);
    expect(
      await probe.count(
        `SELECT count(*)::int AS n FROM "Touchpoint" WHERE id = ANY($1::uuid[]) AND "companyId" IS NULL`,
        [tpIds],
      ),
    ).toBe(tpIds.length);
    // the race happened: some writes were made before the deletion (later disconnected)
    expect(outcome.filter((o) => o === 'written').length).toBeGreaterThan(0);
  });
});
