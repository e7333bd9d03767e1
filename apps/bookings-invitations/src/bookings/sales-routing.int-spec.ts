import { randomUUID } from 'node:crypto';
import {
  ServiceTestClient,
  startWorkerChild,
  tenantHeaders,
  TestAnswer,
  WorkerChild,
} from '@crm/testing';
import { SalesRouting } from './sales-routing';
import { TenantSales } from './tenant-sales';
import { BookingTestKit } from './test/booking-test-kit';

// One writer per tenant across replicas (sales-routing.ts): the replica holding a tenant's lease
// writes its bookings and holds, the others forward theirs over NATS; a holder killed -9 in the
// middle of an on-sale is taken over and nothing is lost or confirmed twice. And one tenant's
// events share batches (booking-batch-writer.ts): each event's seats decided on their own.

jest.setTimeout(240_000);

/** Short, so a forward to a killed holder fails within the test. */
const FORWARD_TIMEOUT_MS = 3000;

let t: BookingTestKit;
let child: WorkerChild | null = null;

beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_sales_routing', {
    replica: true,
    env: { SALES_FORWARD_TIMEOUT_MS: String(FORWARD_TIMEOUT_MS) },
  });
}, 120_000);

afterAll(async () => {
  if (child && child.child.exitCode === null && child.child.signalCode === null)
    child.child.kill('SIGKILL');
  await t?.close();
});

const newTenant = () => `tenant-sales-${randomUUID().slice(0, 8)}`;
const statsOf = (app: NonNullable<BookingTestKit['replicaApp']>) => ({
  ...app.get(TenantSales).stats,
});
const leaseOwner = async (tenant: string) =>
  (
    await t.sql<{ owner: string }>(`SELECT owner FROM "SalesLease" WHERE "tenantId" = $1`, [tenant])
  )[0]?.owner;
const statuses = (answers: TestAnswer[]) =>
  answers.reduce<Record<number, number>>(
    (m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }),
    {},
  );
const invoiceNumbers = async (tenant: string) =>
  (
    await t.sql<{ n: string }>(
      `SELECT "invoiceNumber" AS n FROM "Booking" WHERE "tenantId" = $1 ORDER BY 1`,
      [tenant],
    )
  ).map((r) => r.n);
const oneToN = (n: number, year: string) =>
  Array.from({ length: n }, (_, i) => `${year}-${String(i + 1).padStart(6, '0')}`);

it('two replicas: the lease holder writes every batch of the tenant, the other forwards; exact', async () => {
  const tenant = newTenant();
  const eventId = await t.event(tenant);
  const type = await t.ticketType(eventId, { price: '10', quota: 150 }, tenant);
  const apps = [t.svc.app, t.replicaApp!];
  const before = apps.map(statsOf);
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      (i % 2 ? t.replicaApi! : t.api).rest(
        'POST',
        '/bookings/public',
        t.body(eventId, [{ ticketTypeId: type }]),
        tenantHeaders(tenant),
      ),
    ),
  );
  expect(statuses(answers)).toEqual({ 201: 150, 409: 50 });
  const delta = apps.map((app, k) => {
    const now = statsOf(app);
    return {
      items: now.items - before[k].items,
      forwarded: now.forwarded - before[k].forwarded,
      served: now.served - before[k].served,
    };
  });
  const owner = await leaseOwner(tenant);
  const holder = apps.findIndex((app) => app.get(SalesRouting).ownerId === owner);
  expect(holder).toBeGreaterThanOrEqual(0);
  const other = 1 - holder;
  // Every request was written by the holder: its own 100 and the 100 the other forwarded.
  expect(delta[holder]).toEqual({ items: 200, forwarded: 0, served: 100 });
  expect(delta[other]).toEqual({ items: 0, forwarded: 100, served: 0 });
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: 150 }]);
  const numbers = await invoiceNumbers(tenant);
  expect(numbers).toEqual(oneToN(150, numbers[0].slice(0, 4)));
});

it("one tenant's events share batches, each event's seats decided on its own; holds and invitations stay with their event", async () => {
  const tenant = newTenant();
  const [small, large] = [await t.event(tenant), await t.event(tenant)];
  const smallType = await t.ticketType(small, { price: '10', quota: 10 }, tenant);
  const largeType = await t.ticketType(large, { price: '10', quota: 100 }, tenant);
  const hold = await t.api.rest(
    'POST',
    '/bookings/public/holds',
    { eventId: small, tickets: [{ ticketTypeId: smallType, count: 1 }] },
    tenantHeaders(tenant),
  );
  expect(hold.status).toBe(201);
  const before = statsOf(t.svc.app);
  const answers = await Promise.all(
    Array.from({ length: 121 }, (_, i) => {
      // the last one books the large event with the small event's hold: not its hold
      const over = i === 120 ? { holdToken: hold.body.data.token } : {};
      const [eventId, type] = i % 2 && i < 120 ? [small, smallType] : [large, largeType];
      return t.api.rest(
        'POST',
        '/bookings/public',
        t.body(eventId, [{ ticketTypeId: type }], over),
        tenantHeaders(tenant),
      );
    }),
  );
  const after = statsOf(t.svc.app);
  expect(after.items - before.items).toBe(121);
  expect(after.batches - before.batches).toBeLessThan(121);
  const ofSmall = answers.filter((_, i) => i % 2 && i < 120);
  const ofLarge = answers.filter((_, i) => !(i % 2) && i < 120);
  // 9 seats were free beside the hold; the large event is not touched by the small one selling out
  expect(statuses(ofSmall)).toEqual({ 201: 9, 409: 51 });
  expect(statuses(ofLarge)).toEqual({ 201: 60 });
  expect(answers[120].status).toBe(400);
  expect(answers[120].body.errors).toEqual([
    expect.objectContaining({ field: 'holdToken', rule: 'unknownHold' }),
  ]);
  expect(await t.counters(small)).toEqual([{ id: smallType, sold: 9 }]);
  expect(await t.counters(large)).toEqual([{ id: largeType, sold: 60 }]);
  const [held] = await t.sql<{ held: number }>(
    `SELECT held FROM "TicketType" WHERE id = $1::uuid`,
    [smallType],
  );
  expect(held.held).toBe(1);
  // one invoice counter for both events: 1..69 without a gap, whichever event a number went to
  const numbers = await invoiceNumbers(tenant);
  expect(numbers).toEqual(oneToN(69, numbers[0].slice(0, 4)));
});

it('the lease holder killed -9 in the middle of an on-sale: taken over, every buyer ends with exactly one booking', async () => {
  const tenant = newTenant();
  const buyers = 300;
  const eventId = await t.event(tenant);
  const type = await t.ticketType(eventId, { price: '49', quota: buyers }, tenant);
  child = await startWorkerChild('bookings-invitations', {
    PROCESS_ROLE: 'api',
    DATABASE_URL: t.svc.databaseUrl,
    NATS_URL: t.natsUrl,
    MAIL_WORKER_ENABLED: 'false',
    SALE_SWEEP_INTERVAL_MS: '0',
  });
  // The child sells first: it holds the tenant's lease, and the in-test replica forwards to it.
  const first = await new ServiceTestClient(child.url).rest(
    'POST',
    '/bookings/public',
    t.body(eventId, [{ ticketTypeId: type }]),
    tenantHeaders(tenant, { 'Idempotency-Key': 'buyer-0' }),
  );
  expect(first.status).toBe(201);
  const routing = t.svc.app.get(SalesRouting);
  const takeoversBefore = routing.stats.takeovers;

  const LANES = 30;
  const answered: Record<number, number> = {};
  let next = 1;
  const killed = (async () => {
    // kill once part of the sale is written through the child
    while ((await t.count('Booking', `"tenantId" = $1`, [tenant])) < 60)
      await new Promise((r) => setTimeout(r, 20));
    child!.child.kill('SIGKILL');
  })();
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let i = next++; i < buyers; i = next++) {
        // a shop's front end: retries with the key of its first try until it has an answer
        for (;;) {
          const res = await t.api
            .rest(
              'POST',
              '/bookings/public',
              t.body(eventId, [{ ticketTypeId: type }]),
              tenantHeaders(tenant, { 'Idempotency-Key': `buyer-${i}` }),
            )
            .catch(() => null);
          if (res && (res.status === 201 || res.status === 409 || res.status === 400)) {
            answered[res.status] = (answered[res.status] ?? 0) + 1;
            break;
          }
          expect(res?.status ?? 503).toBe(503);
        }
      }
    }),
  );
  await killed;
  expect(answered).toEqual({ 201: buyers - 1 });
  expect(routing.stats.takeovers).toBeGreaterThan(takeoversBefore);
  expect(await leaseOwner(tenant)).toBe(routing.ownerId);
  expect(await t.count('Booking', `"tenantId" = $1`, [tenant])).toBe(buyers);
  expect(await t.count('EventTicket', `"tenantId" = $1 AND status = 'valid'`, [tenant])).toBe(
    buyers,
  );
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: buyers }]);
  const keys = await t.sql<{ n: number }>(
    `SELECT count(DISTINCT "bookingId")::int AS n FROM "IdempotencyKey" WHERE "tenantId" = $1`,
    [tenant],
  );
  expect(keys[0].n).toBe(buyers);
  const numbers = await invoiceNumbers(tenant);
  expect(numbers).toEqual(oneToN(buyers, numbers[0].slice(0, 4)));
});
