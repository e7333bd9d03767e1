import { connect, headers as natsHeaders, NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { PeopleDeletedEvent, PeopleMergedEvent, Subjects } from '@crm/messaging';
import { NATS_TEST_URL } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { seeingEveryTenant } from '../test/every-tenant';
import { RunningService, startCrmCompanies } from '../test/service-harness';

// crm-people's events as its relay publishes them (JetStream, Nats-Msg-Id = event id), consumed
// by the running crm-companies: managed-by relations follow deleted and merged people.

jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
const ROLE_1 = '00000000-0000-4000-a000-000000000401';
const ROLE_2 = '00000000-0000-4000-a000-000000000402';

let svc: RunningService;
let db: PrismaService;
let nc: NatsConnection;

beforeAll(async () => {
  svc = await startCrmCompanies('crm_companies_it_managed_by_events');
  db = seeingEveryTenant(svc.app.get(PrismaService));
  nc = await connect({ servers: NATS_TEST_URL, name: 'crm-people-relay-stand-in' });
}, 60000);
afterAll(async () => {
  await nc?.close();
  await svc?.app.close();
});

async function publish(subject: string, event: object): Promise<string> {
  const id = randomUUID();
  const h = natsHeaders();
  h.set('Crm-Tenant-Id', (event as { tenantId: string }).tenantId);
  for (let attempt = 0; ; attempt++) {
    try {
      await nc.jetstream().publish(subject, JSON.stringify(event), { msgID: id, headers: h });
      return id;
    } catch (err) {
      // the service creates the stream when it connects
      if (attempt > 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Waits until the event id is recorded as applied (same transaction as the handler's writes). */
async function applied(eventId: string, ms = 45_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await db.processedEvent.findUnique({ where: { id: eventId } }))) {
    if (Date.now() > end) throw new Error(`event ${eventId} was not applied within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function company(tenantId = A): Promise<string> {
  return (await db.company.create({ data: { tenantId, name: 'Acme' }, select: { id: true } })).id;
}

async function manager(
  tenantId: string,
  companyId: string,
  personId: string,
  managerRoleId = ROLE_1,
  since: Date | null = null,
): Promise<string> {
  const row = await db.companyManager.create({
    data: { tenantId, companyId, personId, managerRoleId, since },
    select: { id: true },
  });
  return row.id;
}

const state = (companyIds: string[]) =>
  db.companyManager
    .findMany({
      where: { companyId: { in: companyIds } },
      select: { id: true, personId: true, managerRoleId: true, since: true },
    })
    .then((rows) => new Map(rows.map((r) => [r.id, r])));

it('PeopleDeletedEvent removes the tenant’s relations of those people, nothing else', async () => {
  const [c1, c2, cb] = [await company(), await company(), await company(B)];
  const [gone, gone2, stays] = [randomUUID(), randomUUID(), randomUUID()];
  const r1 = await manager(A, c1, gone);
  const r2 = await manager(A, c2, gone, ROLE_2);
  const r3 = await manager(A, c1, gone2);
  const kept = await manager(A, c1, stays);
  const foreign = await manager(B, cb, gone); // same person id in another tenant

  const event: PeopleDeletedEvent = { tenantId: A, personIds: [gone, gone2] };
  await applied(await publish(Subjects.crmPeople.peopleDeleted, event));

  const rows = await state([c1, c2, cb]);
  expect([...rows.keys()].sort()).toEqual([kept, foreign].sort());
  expect([r1, r2, r3].some((id) => rows.has(id))).toBe(false);
});

it('PeopleMergedEvent re-points sources to the target, dropping what would repeat', async () => {
  const [c1, c2, c3, cb] = [await company(), await company(), await company(), await company(B)];
  const [target, s1, s2] = [randomUUID(), randomUUID(), randomUUID()];
  const since = new Date('2020-01-01T00:00:00Z');
  const own = await manager(A, c1, target, ROLE_1, since); // the target's own stays as it is
  const repeatsOwn = await manager(A, c1, s1, ROLE_1); // would repeat `own`: dropped
  const otherRole = await manager(A, c1, s1, ROLE_2); // moves
  const older = await manager(A, c2, s1, ROLE_1); // s1 and s2 in c2 as ROLE_1: the older moves
  const younger = await manager(A, c2, s2, ROLE_1); // ... and this one is dropped
  const alone = await manager(A, c3, s2, ROLE_2); // moves
  const foreign = await manager(B, cb, s1, ROLE_1); // another tenant: untouched

  const event: PeopleMergedEvent = { tenantId: A, targetId: target, sourceIds: [s1, s2] };
  await applied(await publish(Subjects.crmPeople.peopleMerged, event));

  const rows = await state([c1, c2, c3, cb]);
  expect([...rows.keys()].sort()).toEqual([own, otherRole, older, alone, foreign].sort());
  expect(rows.get(own)).toMatchObject({ personId: target, managerRoleId: ROLE_1, since });
  for (const id of [otherRole, older, alone]) expect(rows.get(id)!.personId).toBe(target);
  expect(rows.get(foreign)!.personId).toBe(s1);
  expect(rows.has(repeatsOwn) || rows.has(younger)).toBe(false);
});

it('an event for the target alone (nothing to move) is applied without change', async () => {
  const c = await company();
  const target = randomUUID();
  const own = await manager(A, c, target);
  const event: PeopleMergedEvent = { tenantId: A, targetId: target, sourceIds: [target] };
  await applied(await publish(Subjects.crmPeople.peopleMerged, event));
  expect([...(await state([c])).keys()]).toEqual([own]);
});
