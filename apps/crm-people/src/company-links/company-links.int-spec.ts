import { connect, headers as natsHeaders, NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { AppException } from '@crm/errors';
import {
  CompaniesDeletedEvent,
  MessageBus,
  PeopleContactsReply,
  PeopleExistReply,
  Subjects,
} from '@crm/messaging';
import { NATS_TEST_URL } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { RunningService, startCrmPeople } from '../test/service-harness';
import { inTenant, overAllTenants } from '../test/tenant-scope';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { CompanyLinksRepository } from './company-links.repository';

// crm-people's side of crm-companies' links, against the real service, database and NATS: the
// peopleExist query answered over NATS, and a CompaniesDeletedEvent published to JetStream the
// way crm-companies' relay does, consumed by the running service.

jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
const ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000401'; // a system manager role
const EMPLOYEE = '00000000-0000-4000-a000-000000000301'; // a company relation type, not a role

let svc: RunningService;
let db: PrismaService;
let bus: MessageBus;
let nc: NatsConnection;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_company_links');
  db = svc.app.get(PrismaService);
  bus = svc.app.get(MessageBus);
  nc = await connect({ servers: NATS_TEST_URL, name: 'crm-companies-relay-stand-in' });
}, 60000);
afterAll(async () => {
  await nc?.close();
  await svc?.app.close();
});

async function person(tenantId: string, firstname = 'Anna'): Promise<string> {
  return (
    await inTenant(tenantId, () =>
      db.person.create({ data: { tenantId, firstname }, select: { id: true } }),
    )
  ).id;
}

const ask = (payload: object) =>
  bus.request<PeopleExistReply>(Subjects.crmPeople.peopleExist, payload);

describe('peopleExist (NATS request from crm-companies)', () => {
  it('names the ids that are not people of the tenant, in the order asked, with one query', async () => {
    const mine = await person(A);
    const theirs = await person(B);
    const unknown = randomUUID();
    const spy = jest.spyOn(svc.app.get(CompanyLinksRepository), 'existingPeople');
    const reply = await ask({
      tenantId: A,
      personIds: [theirs, mine, unknown, mine.toUpperCase()],
    });
    expect(reply).toEqual({ missingPersonIds: [theirs, unknown] });
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(await ask({ tenantId: B, personIds: [theirs] })).toEqual({ missingPersonIds: [] });
  });

  it('names the manager roles that are not system or tenant entries of manager-roles', async () => {
    const [own, otherList] = await inTenant(A, async () => [
      await db.settingsEntry.create({
        data: { tenantId: A, list: 'MANAGER_ROLES', text: 'Sponsor' },
      }),
      await db.settingsEntry.create({ data: { tenantId: A, list: 'ORGA_TAGS', text: 'VIP' } }),
    ]);
    const p = await person(A);
    const unknown = randomUUID();
    const spy = jest.spyOn(svc.app.get(SettingsLookupService), 'entries');
    const asked = [ACCOUNT_MANAGER, own.id, otherList.id, EMPLOYEE, unknown];
    expect(await ask({ tenantId: A, personIds: [p], managerRoleIds: asked })).toEqual({
      missingPersonIds: [],
      // another list's entry, a system entry of another list, an unknown id
      unknownManagerRoleIds: [otherList.id, EMPLOYEE, unknown],
    });
    expect(spy).toHaveBeenCalledTimes(1); // every role in one lookup
    spy.mockRestore();
    // another tenant's entry is unknown; the system entries are everyone's
    expect(
      await ask({ tenantId: B, personIds: [], managerRoleIds: [own.id, ACCOUNT_MANAGER] }),
    ).toEqual({ missingPersonIds: [], unknownManagerRoleIds: [own.id] });
  });

  it('still answers the first form of the request (one managerRoleId)', async () => {
    const role = async (tenantId: string, managerRoleId: string) =>
      (await ask({ tenantId, personIds: [], managerRoleId })).managerRoleExists;
    expect(await role(A, ACCOUNT_MANAGER)).toBe(true);
    expect(await role(A, EMPLOYEE)).toBe(false);
    expect(await role(A, randomUUID())).toBe(false);
  });

  it('refuses a malformed request with a 400 naming the field', async () => {
    const err = await ask({ tenantId: A, personIds: ['not-a-uuid'] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppException);
    expect((err as AppException).status).toBe(400);
    expect((err as AppException).problems[0]).toMatchObject({ field: 'personIds' });
  });
});

describe('peopleContacts (NATS request from bookings-invitations)', () => {
  const contacts = (payload: object) =>
    bus.request<PeopleContactsReply>(Subjects.crmPeople.peopleContacts, payload);
  const card = (tenantId: string, personId: string, data: Record<string, unknown>) =>
    inTenant(tenantId, () => db.businessCard.create({ data: { tenantId, personId, ...data } }));

  it('answers names and the first e-mail of the favorite card, else of any card, with one query', async () => {
    const favorite = await person(A, 'Fay');
    await card(A, favorite, { emails: [{ mail: 'old@example.com' }] });
    await card(A, favorite, {
      isFavorite: true,
      emails: [{ mail: 'fay@example.com' }, { mail: 'second@example.com' }],
    });
    const anyCard = await person(A, 'Andy');
    await card(A, anyCard, { emails: [] });
    await card(A, anyCard, { emails: [{ mail: 'andy@example.com' }] });
    const none = await person(A, 'Nora');
    await card(A, none, { isFavorite: true, emails: [] });
    const theirs = await person(B, 'Bea');
    await card(B, theirs, { emails: [{ mail: 'bea@example.com' }] });
    const unknown = randomUUID();

    const spy = jest.spyOn(svc.app.get(CompanyLinksRepository), 'contacts');
    const reply = await contacts({
      tenantId: A,
      personIds: [favorite, anyCard.toUpperCase(), none, theirs, unknown, favorite],
    });
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(reply.people).toEqual([
      { id: favorite, firstname: 'Fay', lastname: null, email: 'fay@example.com', language: null },
      { id: anyCard, firstname: 'Andy', lastname: null, email: 'andy@example.com', language: null },
      { id: none, firstname: 'Nora', lastname: null, email: null, language: null },
    ]);
    // another tenant's person is as unknown as a made-up id
    expect(reply.missingPersonIds).toEqual([theirs, unknown]);
    const bs = await contacts({ tenantId: B, personIds: [theirs] });
    expect(bs.people.map((p) => p.email)).toEqual(['bea@example.com']);
  });

  it('answers an empty list with nothing, and refuses malformed ids with a 400', async () => {
    expect(await contacts({ tenantId: A, personIds: [] })).toEqual({
      people: [],
      missingPersonIds: [],
    });
    const err = await contacts({ tenantId: A, personIds: ['x'] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as AppException).status).toBe(400);
  });
});

describe('CompaniesDeletedEvent (JetStream, from crm-companies)', () => {
  async function publish(event: CompaniesDeletedEvent, id = randomUUID()): Promise<string> {
    const h = natsHeaders();
    h.set('Crm-Tenant-Id', event.tenantId);
    // the service creates the stream when it connects; retry until it exists
    for (let attempt = 0; ; attempt++) {
      try {
        await nc
          .jetstream()
          .publish(Subjects.crmCompanies.companiesDeleted, JSON.stringify(event), {
            msgID: id,
            headers: h,
          });
        return id;
      } catch (err) {
        if (attempt > 50) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 45_000) {
    const end = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (ok(v) || Date.now() > end) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const connection = {
    companyId: true,
    companyRelationTypeId: true,
    companyRelationSince: true,
    companyRelationUntil: true,
  } as const;

  it('disconnects the tenant’s cards and clears its touchpoints, and nothing else', async () => {
    const gone = randomUUID();
    const gone2 = randomUUID();
    const kept = randomUUID();
    const pa = await person(A);
    const pb = await person(B);
    const linked = {
      companyRelationTypeId: EMPLOYEE,
      companyRelationSince: new Date('2020-01-01T00:00:00Z'),
      companyRelationUntil: new Date('2030-01-01T00:00:00Z'),
    };
    const card = (tenantId: string, personId: string, companyId: string) =>
      inTenant(tenantId, () =>
        db.businessCard.create({
          data: { tenantId, personId, companyId, business: 'Acme', ...linked },
          select: { id: true },
        }),
      );
    const touchpoint = (tenantId: string, companyId: string) =>
      inTenant(tenantId, () =>
        db.touchpoint.create({
          data: { tenantId, type: 'call', subject: 'Hello', start: new Date(), companyId },
          select: { id: true },
        }),
      );
    const cardA = await card(A, pa, gone);
    const cardA2 = await card(A, pa, gone2);
    const cardKept = await card(A, pa, kept);
    const cardB = await card(B, pb, gone); // same company id in another tenant: not touched
    const tpA = await touchpoint(A, gone);
    const tpKept = await touchpoint(A, kept);
    const tpB = await touchpoint(B, gone);

    const eventId = await publish({ tenantId: A, companyIds: [gone, gone2] });

    const after = await until(
      () =>
        inTenant(A, () =>
          db.businessCard.findUniqueOrThrow({ where: { id: cardA.id }, select: connection }),
        ),
      (c) => c.companyId === null,
    );
    expect(after).toEqual({
      companyId: null,
      companyRelationTypeId: null,
      companyRelationSince: null,
      companyRelationUntil: null,
    });
    // the same transaction: the other card, the touchpoint and the processed mark are there too
    // (read over every tenant: B's rows are there, untouched)
    const [a2, keptCard, bCard, tps, processed] = await overAllTenants(() =>
      Promise.all([
        db.businessCard.findUniqueOrThrow({ where: { id: cardA2.id }, select: connection }),
        db.businessCard.findUniqueOrThrow({ where: { id: cardKept.id }, select: connection }),
        db.businessCard.findUniqueOrThrow({ where: { id: cardB.id }, select: connection }),
        db.touchpoint.findMany({
          where: { id: { in: [tpA.id, tpKept.id, tpB.id] } },
          select: { id: true, companyId: true },
        }),
        db.processedEvent.findUnique({ where: { id: eventId } }),
      ]),
    );
    expect(a2.companyId).toBeNull();
    expect(keptCard).toMatchObject({ companyId: kept, companyRelationTypeId: EMPLOYEE });
    expect(bCard).toMatchObject({ companyId: gone, companyRelationTypeId: EMPLOYEE });
    expect(Object.fromEntries(tps.map((t) => [t.id, t.companyId]))).toEqual({
      [tpA.id]: null,
      [tpKept.id]: kept,
      [tpB.id]: gone,
    });
    expect(processed).toMatchObject({ subject: Subjects.crmCompanies.companiesDeleted });
  });
});
