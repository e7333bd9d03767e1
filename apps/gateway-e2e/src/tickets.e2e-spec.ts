import { randomUUID } from 'node:crypto';
import {
  BOOKING_SERVICES,
  Client,
  eventually,
  inDays,
  startIsolatedClient,
  TestTenant,
} from './client';

// K1, K2 through the gateway with the events service beside bookings-invitations: an event
// created at events, its ticket types at bookings-invitations (the event confirmed by the copy
// fed over JetStream or by asking events over NATS), and a duplicated event's copy getting the
// ticket types of its source. The stack has a nats-server of its own, so no other events or
// bookings-invitations process on the shared NATS answers its requests or takes its stream.

jest.setTimeout(90000);

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startIsolatedClient('tickets', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => {
  await client?.stack.shutdown();
}, 30000);

async function event(t: TestTenant, title = 'Ticketed gala'): Promise<string> {
  const res = await client.rest(t, 'POST', '/events', {
    title,
    startsAt: inDays(30, 18),
    endsAt: inDays(30, 21),
    timeZone: 'Europe/Berlin',
    capacity: 200,
    taxRateId: 'de-standard',
  });
  if (res.status !== 201) throw new Error(`create event: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

const ticket = (eventId: string, name: string, price: string) => ({
  eventId,
  name,
  price,
  currency: 'EUR',
  quota: 100,
  maxPerBooking: 4,
});

it('K1 creates ticket types of an event made at events; a duplicate of the event gets copies', async () => {
  const eventId = await event(a);
  const early = await client.rest(a, 'POST', '/tickets', ticket(eventId, 'Early bird', '59.50'));
  expect(early.status).toBe(201);
  expect(early.body.data).toMatchObject({ eventId, price: '59.50', currency: 'EUR', quota: 100 });
  const regular = await client.rest(a, 'POST', '/tickets', ticket(eventId, 'Regular', '119'));
  expect(regular.status).toBe(201);

  // once the copy of the event has arrived, net and tax follow from the event's rate
  await eventually(async () => {
    const read = await client.rest(a, 'GET', `/tickets/${regular.body.data.id}`);
    expect(read.body.data.tax).toEqual({
      taxRateId: 'de-standard',
      rate: '19.00',
      net: '100.00',
      tax: '19.00',
      gross: '119.00',
    });
  }, 15000);

  const dup = await client.rest(a, 'POST', `/events/${eventId}/duplicate`);
  expect(dup.status).toBe(201);
  const copyId = dup.body.data.id;
  await eventually(async () => {
    const list = await client.rest(a, 'GET', `/tickets?eventId=${copyId}&sort=name`);
    expect(list.status).toBe(200);
    expect(list.body.metaData.totalResults).toBe(2);
    expect(
      list.body.data.map((x: { name: string; price: string; eventId: string }) => [
        x.name,
        x.price,
        x.eventId,
      ]),
    ).toEqual([
      ['Early bird', '59.50', copyId],
      ['Regular', '119.00', copyId],
    ]);
    expect(list.body.data[0].id).not.toBe(early.body.data.id);
  }, 20000);
  // the source keeps its own
  const source = await client.rest(a, 'GET', `/tickets?eventId=${eventId}`);
  expect(source.body.metaData.totalResults).toBe(2);
});

it('K2 reads, updates and deletes; bad input is a 400 naming the field', async () => {
  const eventId = await event(a, 'Workshop');
  const created = await client.rest(a, 'POST', '/tickets', ticket(eventId, 'Seat', '20'));
  expect(created.status).toBe(201);
  const id = created.body.data.id;
  const upd = await client.rest(a, 'PUT', `/tickets/${id}`, { price: '25.00', active: false });
  expect(upd.status).toBe(200);
  expect(upd.body.data).toMatchObject({ price: '25.00', active: false, name: 'Seat' });
  const bad = await client.rest(a, 'PUT', `/tickets/${id}`, { currency: 'Euro' });
  expect(bad.status).toBe(400);
  expect(bad.body.errors[0].field).toBe('currency');
  const del = await client.rest(a, 'DELETE', `/tickets/${id}`);
  expect(del.status).toBe(200);
  expect((await client.rest(a, 'GET', `/tickets/${id}`)).status).toBe(404);
});

it('another tenant’s event and ticket types answer 404 with nothing changed', async () => {
  const eventId = await event(a, 'Private');
  const created = await client.rest(a, 'POST', '/tickets', ticket(eventId, 'VIP', '300'));
  expect(created.status).toBe(201);
  const id = created.body.data.id;
  expect((await client.rest(b, 'POST', '/tickets', ticket(eventId, 'Fake', '1'))).status).toBe(404);
  expect((await client.rest(b, 'GET', `/tickets?eventId=${eventId}`)).status).toBe(404);
  expect((await client.rest(b, 'GET', `/tickets/${id}`)).status).toBe(404);
  expect((await client.rest(b, 'PUT', `/tickets/${id}`, { name: 'Mine' })).status).toBe(404);
  expect((await client.rest(b, 'DELETE', `/tickets/${id}`)).status).toBe(404);
  const mine = await client.rest(a, 'GET', `/tickets/${id}`);
  expect(mine.body.data).toMatchObject({ name: 'VIP', price: '300.00' });
  expect((await client.rest(a, 'POST', '/tickets', ticket(randomUUID(), 'X', '1'))).status).toBe(
    404,
  );
});
