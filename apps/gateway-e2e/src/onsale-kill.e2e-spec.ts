import { randomUUID } from 'node:crypto';
import { runSql, tenantHeaders } from '@crm/testing';
import {
  BOOKING_SERVICES,
  Client,
  eventually,
  inDays,
  startIsolatedClient,
  TestTenant,
} from './client';

// An on-sale through the gateway while bookings-invitations is killed -9 in the middle of it:
// its booking batches die with it, half written or not yet committed. Every buyer retries with
// the Idempotency-Key of their first try until answered 201 (as a shop's front end does). Then
// each buyer has exactly one booking, the seats sold equal the bookings, and the invoice numbers
// are 1..N without a gap: nothing lost, nothing confirmed twice.

jest.setTimeout(240000);

const BUYERS = 240;
const LANES = 40;

let client: Client;
let tenant: TestTenant;
beforeAll(async () => {
  // All buyers come from 127.0.0.1 here: the public rate limit per client address would stop
  // them (a real on-sale comes from many addresses).
  client = await startIsolatedClient('onsale_kill', BOOKING_SERVICES, {
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_RATE_LIMIT_BURST: '10000',
  });
  tenant = await client.tenant();
}, 180000);
afterAll(async () => {
  await client?.stack.shutdown();
}, 30000);

async function onSaleEvent(): Promise<{ eventId: string; typeId: string }> {
  const site = await client.rest(tenant, 'POST', '/websites', {
    name: 'Shop',
    url: `https://onsale-${Date.now().toString(36)}.example.com/`,
    language: 'en',
  });
  const event = await client.rest(tenant, 'POST', '/events', {
    title: 'Sold out show',
    startsAt: inDays(30, 18),
    endsAt: inDays(30, 21),
    timeZone: 'Europe/Berlin',
    taxRateId: 'de-standard',
    venue: { name: 'Arena', city: 'Berlin' },
    status: 'scheduled',
  });
  const eventId = event.body.data.id;
  const type = await client.rest(tenant, 'POST', '/tickets', {
    eventId,
    name: 'Standing',
    price: '49',
    currency: 'EUR',
    quota: BUYERS,
  });
  const typeId = type.body.data.id;
  const pub = await client.rest(tenant, 'PUT', `/events/${eventId}/publication`, {
    published: true,
    websiteIds: [site.body.data.id],
  });
  if (pub.status !== 200) throw new Error(`publish: ${JSON.stringify(pub.body)}`);
  await eventually(async () => {
    const probe = await book(eventId, randomUUID(), randomUUID());
    expect(probe.body.errors?.[0]?.rule).toBe('unknownTicketType');
  }, 30000);
  return { eventId, typeId };
}

function book(eventId: string, typeId: string, key: string) {
  return client.raw('/v1/crm/bookings/public', {
    method: 'POST',
    headers: {
      ...tenantHeaders(tenant.id),
      'Content-Type': 'application/json',
      'Idempotency-Key': key,
    },
    body: JSON.stringify({
      eventId,
      booker: { firstname: 'Ada', lastname: `Buyer ${key.slice(0, 8)}`, email: 'ada@example.org' },
      tickets: [{ ticketTypeId: typeId, participant: { firstname: 'Ada', lastname: 'Buyer' } }],
    }),
  });
}

it('kill -9 of bookings-invitations mid on-sale: every buyer one booking, seats and invoice numbers exact', async () => {
  const { eventId, typeId } = await onSaleEvent();
  const keys = Array.from({ length: BUYERS }, () => randomUUID());
  const answered = new Map<string, string>(); // key -> booking id of its 201
  const failures: Record<string, number> = {};
  let killed = false;
  let replayed = 0; // committed before the kill, answer lost, answered again by its key
  let next = 0;

  const killMidway = async () => {
    killed = true;
    await client.stack.kill('bookings-invitations');
    await client.stack.start('bookings-invitations');
  };
  let restart: Promise<void> | null = null;

  /** One buyer: tries until answered 201 with the same key. */
  const buyer = async (key: string) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const res = await book(eventId, typeId, key).catch(() => null);
      if (res?.status === 201) {
        answered.set(key, res.body.data.id);
        if (attempt > 0 && res.headers.get('idempotent-replayed') === 'true') replayed++;
        if (!killed && answered.size === BUYERS / 4) restart = killMidway();
        return;
      }
      const why = String(res?.status ?? 'network');
      failures[why] = (failures[why] ?? 0) + 1;
      if (res && ![502, 503, 504].includes(res.status))
        throw new Error(`buyer ${key}: ${res.status} ${JSON.stringify(res.body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`buyer ${key} never got a booking`);
  };
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < keys.length) await buyer(keys[next++]);
    }),
  );
  await restart;
  expect(killed).toBe(true);
  console.log(
    `on-sale with kill -9: ${BUYERS} buyers, failed tries ${JSON.stringify(failures)}, ` +
      `${replayed} answers lost by the kill and replayed by their key`,
  );
  // The kill cut requests off: some buyers had to try again.
  expect(Object.values(failures).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

  expect(answered.size).toBe(BUYERS);
  expect(new Set(answered.values()).size).toBe(BUYERS);
  const db = client.stack.processes.get('bookings-invitations')!.env.DATABASE_URL;
  const [facts] = await runSql<{
    bookings: number;
    tickets: number;
    sold: number;
    numbers: number;
    last: string;
    keys: number;
  }>(
    db,
    `SELECT (SELECT count(*)::int FROM "Booking" WHERE "eventId" = $1::uuid) AS bookings,
            (SELECT count(*)::int FROM "EventTicket" WHERE "eventId" = $1::uuid AND status = 'valid') AS tickets,
            (SELECT sold FROM "TicketType" WHERE id = $2::uuid) AS sold,
            (SELECT count(DISTINCT "invoiceNumber")::int FROM "Booking" WHERE "tenantId" = $3) AS numbers,
            (SELECT max("invoiceNumber") FROM "Booking" WHERE "tenantId" = $3) AS last,
            (SELECT count(*)::int FROM "IdempotencyKey" WHERE "tenantId" = $3) AS keys`,
    [eventId, typeId, tenant.id],
  );
  expect(facts).toEqual({
    bookings: BUYERS,
    tickets: BUYERS,
    sold: BUYERS,
    numbers: BUYERS,
    last: `${facts.last.slice(0, 4)}-${String(BUYERS).padStart(6, '0')}`,
    keys: BUYERS,
  });
  // The answered bookings are the stored ones.
  const stored = await runSql<{ id: string }>(
    db,
    `SELECT id::text FROM "Booking" WHERE "eventId" = $1::uuid`,
    [eventId],
  );
  expect(new Set(stored.map((r) => r.id))).toEqual(new Set(answered.values()));
});
