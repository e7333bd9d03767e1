import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Subjects } from '@crm/messaging';
import { TicketTestKit } from './test/ticket-test-kit';

// K1, K2 against the real service, database and (its own) NATS: the event checked against the
// service's copy of it, else asked of the events service (a stand-in here), 503 when none answers.

jest.setTimeout(60000);

let t: TicketTestKit;
beforeAll(async () => {
  // no sale sweeps (holds, payment deadlines): their "EventCopy" statements would count in the N+1 test
  t = await TicketTestKit.start('bookings_invitations_it_ticket_types', {
    SALE_SWEEP_INTERVAL_MS: '0',
  });
}, 60000);
afterAll(async () => t?.close());

const body = (eventId: string, over: Record<string, unknown> = {}) => ({
  eventId,
  name: 'Early bird',
  price: '119',
  currency: 'EUR',
  quota: 50,
  ...over,
});

/** An event of tenant A known to this service through an events.events.changed snapshot. */
async function copiedEvent(tenant = t.A, over: Record<string, unknown> = {}) {
  const eventId = randomUUID();
  await t.snapshot(tenant, eventId, over);
  return eventId;
}

describe('K1 create and list', () => {
  it('creates a ticket type of a copied event: gross price, net and tax at the event’s rate', async () => {
    const eventId = await copiedEvent();
    const res = await t.call('POST', '/tickets', body(eventId, { description: ' Until May ' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      eventId,
      name: 'Early bird',
      description: 'Until May',
      price: '119.00',
      currency: 'EUR',
      taxRateId: null,
      tax: {
        taxRateId: 'de-standard',
        rate: '19.00',
        net: '100.00',
        tax: '19.00',
        gross: '119.00',
      },
      quota: 50,
      minPerBooking: 1,
      maxPerBooking: null,
      active: true,
    });
    expect(t.events.asked).toEqual([]); // the copy answered, events was not asked
    const rows = await t.sql(`SELECT price::text, "createdBy" FROM "TicketType" WHERE id = $1`, [
      res.body.data.id,
    ]);
    expect(rows).toEqual([{ price: '119.00', createdBy: expect.any(String) }]);
  });

  it('uses its own tax rate over the event’s, on the event’s start day in its zone', async () => {
    // 2020-06-30T23:30Z is 1 July 2020 in Berlin: the temporary reduced rate of 5 %
    const eventId = await copiedEvent(t.A, { startsAt: '2020-06-30T23:30:00.000Z' });
    const res = await t.call(
      'POST',
      '/tickets',
      body(eventId, { price: '10.50', taxRateId: 'de-reduced' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.tax).toEqual({
      taxRateId: 'de-reduced',
      rate: '5.00',
      net: '10.00',
      tax: '0.50',
      gross: '10.50',
    });
  });

  it('asks the events service when there is no copy yet; its "missing" is a 404', async () => {
    const known = t.events.event(t.A);
    const created = await t.call('POST', '/tickets', body(known));
    expect(created.status).toBe(201);
    expect(created.body.data.tax).toBeNull(); // no copy yet: the event's rate is not known
    expect(t.events.asked).toContainEqual({ tenantId: t.A, eventIds: [known] });

    const unknown = randomUUID();
    const res = await t.call('POST', '/tickets', body(unknown));
    expect(res.status).toBe(404);
    expect(res.body.message).toContain(unknown);
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [unknown])).toBe(0);
  });

  it('lists an event’s ticket types paged, with the total', async () => {
    const eventId = await copiedEvent();
    for (const name of ['A', 'B', 'C']) {
      expect((await t.call('POST', '/tickets', body(eventId, { name }))).status).toBe(201);
    }
    const other = await copiedEvent();
    await t.call('POST', '/tickets', body(other, { name: 'Other' }));
    const page = await t.call('GET', `/tickets?eventId=${eventId}&pageSize=2&sort=-name`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((x: { name: string }) => x.name)).toEqual(['C', 'B']);
    expect(page.body.metaData.totalResults).toBe(3);
    expect(page.body.data[0].tax.net).toBe('100.00');
  });

  it('lists with the same three statements for 2 or 12 types (the copy, the page, the total)', async () => {
    const statementsFor = async (n: number) => {
      const eventId = await copiedEvent();
      for (let i = 0; i < n; i++)
        await t.call('POST', '/tickets', body(eventId, { name: `T${i}` }));
      const spy = jest.spyOn(pg.Client.prototype, 'query');
      try {
        const res = await t.call('GET', `/tickets?eventId=${eventId}`);
        expect(res.body.data).toHaveLength(n);
        return spy.mock.calls
          .map(([q]) => (typeof q === 'string' ? q : String((q as { text?: string })?.text)))
          .filter((q) => /"(TicketType|EventCopy)"/.test(q)).length; // the outbox relay polls meanwhile
      } finally {
        spy.mockRestore();
      }
    };
    expect(await statementsFor(2)).toBe(3);
    expect(await statementsFor(12)).toBe(3);
  });

  it('answers bad input with 400 naming each field and rule, in German on request', async () => {
    const eventId = await copiedEvent();
    const res = await t.call(
      'POST',
      '/tickets',
      body(eventId, {
        price: '12.345',
        currency: 'EURO',
        taxRateId: 'de-zero',
        quota: -1,
        saleStartsAt: '2030-05-01T00:00:00Z',
        saleEndsAt: '2030-04-01T00:00:00Z',
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'currency',
      'quota',
    ]);
    // the type checks pass: the domain rules answer each field
    const rules = await t.call(
      'POST',
      '/tickets',
      body(eventId, {
        price: '12.345',
        currency: 'XYZ',
        taxRateId: 'de-zero',
        saleStartsAt: '2030-05-01T00:00:00Z',
        saleEndsAt: '2030-04-01T00:00:00Z',
        minPerBooking: 3,
        maxPerBooking: 2,
      }),
      t.A,
      { 'Accept-Language': 'de' },
    );
    expect(rules.status).toBe(400);
    expect(rules.body.errors).toEqual([
      expect.objectContaining({ field: 'price', rule: 'price' }),
      expect.objectContaining({ field: 'currency', rule: 'currency' }),
      expect.objectContaining({ field: 'taxRateId', rule: 'taxRate' }),
      expect.objectContaining({ field: 'saleEndsAt', rule: 'salePeriod' }),
      expect.objectContaining({ field: 'maxPerBooking', rule: 'maxBelowMin' }),
    ]);
    expect(rules.body.errors[1].message).toContain('Währungscode');
    const missing = await t.call('GET', '/tickets');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('eventId');
    const unknownField = await t.call('POST', '/tickets', body(eventId, { sold: 3 }));
    expect(unknownField.status).toBe(400);
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });

  it('another tenant’s event is a 404 and nothing is written', async () => {
    const theirs = await copiedEvent(t.B);
    const res = await t.call('POST', '/tickets', body(theirs));
    expect(res.status).toBe(404);
    const list = await t.call('GET', `/tickets?eventId=${theirs}`);
    expect(list.status).toBe(404);
    expect(await t.count('TicketType', `"eventId" = $1::uuid`, [theirs])).toBe(0);
  });
});

describe('K2 read, update, delete', () => {
  async function created(over: Record<string, unknown> = {}) {
    const eventId = await copiedEvent();
    const res = await t.call('POST', '/tickets', body(eventId, over));
    expect(res.status).toBe(201);
    return res.body.data;
  }

  it('reads, updates (fields not given stay, null clears) and deletes', async () => {
    const type = await created({ maxPerBooking: 4, saleEndsAt: '2030-05-01T00:00:00.000Z' });
    const read = await t.call('GET', `/tickets/${type.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(type);

    const upd = await t.call('PUT', `/tickets/${type.id}`, {
      price: '59.5',
      quota: null,
      maxPerBooking: null,
      active: false,
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      name: 'Early bird',
      price: '59.50',
      quota: null,
      maxPerBooking: null,
      active: false,
      saleEndsAt: '2030-05-01T00:00:00.000Z',
      tax: { net: '50.00', tax: '9.50' },
    });
    // the rules hold on the result: a start after the stored end
    const bad = await t.call('PUT', `/tickets/${type.id}`, {
      saleStartsAt: '2030-06-01T00:00:00Z',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'saleEndsAt', rule: 'salePeriod' });

    const del = await t.call('DELETE', `/tickets/${type.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: type.id });
    expect((await t.call('GET', `/tickets/${type.id}`)).status).toBe(404);
    expect((await t.call('DELETE', `/tickets/${type.id}`)).status).toBe(404);
  });

  it('another tenant’s ticket type is a 404 for read, update and delete, nothing changed', async () => {
    const type = await created();
    const before = await t.sql(`SELECT * FROM "TicketType" WHERE id = $1`, [type.id]);
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.call(method, `/tickets/${type.id}`, payload, t.B);
      expect(res.status).toBe(404);
    }
    expect((await t.call('GET', '/tickets/not-a-uuid')).status).toBe(404);
    expect(await t.sql(`SELECT * FROM "TicketType" WHERE id = $1`, [type.id])).toEqual(before);
  });

  it('German 404 message names the ticket type', async () => {
    const res = await t.call('GET', `/tickets/${randomUUID()}`, undefined, t.A, {
      'Accept-Language': 'de',
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('Ticketart');
  });
});

describe('GraphQL', () => {
  it('creates, lists, updates and deletes; TicketType.event is a reference to Event', async () => {
    const eventId = await copiedEvent();
    const created = await t.gql(
      `mutation($input: CreateTicketTypeInput!) { createTicketType(input: $input) {
         id price tax { net tax gross } event { id } } }`,
      { input: body(eventId) },
    );
    expect(created.body.errors).toBeUndefined();
    const type = created.body.data.createTicketType;
    expect(type).toMatchObject({
      price: '119.00',
      tax: { net: '100.00', tax: '19.00', gross: '119.00' },
      event: { id: eventId },
    });
    const list = await t.gql(
      `query($eventId: ID!) { ticketTypes(eventId: $eventId) { totalResults items { id name } } }`,
      { eventId },
    );
    expect(list.body.data.ticketTypes).toEqual({
      totalResults: 1,
      items: [{ id: type.id, name: 'Early bird' }],
    });
    const upd = await t.gql(
      `mutation($id: ID!) { updateTicketType(id: $id, input: { name: "Regular" }) { name } }`,
      { id: type.id },
    );
    expect(upd.body.data.updateTicketType.name).toBe('Regular');
    const foreign = await t.gql(
      `query($id: ID!) { ticketType(id: $id) { id } }`,
      { id: type.id },
      t.B,
    );
    expect(foreign.body.errors[0].extensions.code).toBeDefined();
    expect(foreign.body.data).toBeNull();
    const bad = await t.gql(
      `mutation($input: CreateTicketTypeInput!) { createTicketType(input: $input) { id } }`,
      { input: body(eventId, { price: 'free' }) },
    );
    expect(bad.body.errors[0].message).toBeDefined();
    const del = await t.gql(`mutation($id: ID!) { deleteTicketType(id: $id) { id } }`, {
      id: type.id,
    });
    expect(del.body.data.deleteTicketType).toEqual({ id: type.id });
  });
});

describe('events does not answer', () => {
  it('answers 503 naming events when there is no copy and no events service', async () => {
    await t.events.stop();
    try {
      const eventId = randomUUID();
      const res = await t.call('POST', '/tickets', body(eventId));
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('events');
      expect(await t.count('TicketType', `"eventId" = $1::uuid`, [eventId])).toBe(0);
      // an event the service has a copy of needs no answer from events
      const copied = await copiedEvent();
      expect((await t.call('POST', '/tickets', body(copied))).status).toBe(201);
    } finally {
      await t.events.start();
    }
  });

  it('answers 503 naming events when events is subscribed but does not answer in time', async () => {
    await t.events.stop();
    const silent = t.nc.subscribe(Subjects.events.eventsExist); // takes requests, never replies
    try {
      const eventId = randomUUID();
      const started = Date.now();
      const res = await t.call('POST', '/tickets', body(eventId));
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('events');
      expect(Date.now() - started).toBeGreaterThanOrEqual(2500); // NATS_REQUEST_TIMEOUT_MS 3000
      expect(await t.count('TicketType', `"eventId" = $1::uuid`, [eventId])).toBe(0);
    } finally {
      silent.unsubscribe();
      await t.events.start();
    }
  });
});
