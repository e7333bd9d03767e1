import { Client as Pg } from 'pg';
import { createPublicKey, randomUUID, verify } from 'node:crypto';
import {
  BOOKING_SERVICES,
  Client,
  eventually,
  inDays,
  startIsolatedClient,
  TestTenant,
} from './client';

// ET1-ET13 through the gateway: an event made and published at events, a ticket type and a
// public booking (BK1) at bookings-invitations, then its tickets listed, read with their signed
// codes, verified offline with the published key, checked in (once), cancelled, mailed, exported
// and printed, over REST and GraphQL; another tenant sees and changes nothing. The stack has a
// nats-server of its own.

jest.setTimeout(120000);

let client: Client;
let a: TestTenant;
let b: TestTenant;
let eventsDb: Pg;

beforeAll(async () => {
  client = await startIsolatedClient('event-tickets', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
  eventsDb = new Pg({
    connectionString: client.stack.processes.get('events')!.env.DATABASE_URL,
  });
  await eventsDb.connect();
}, 180000);
afterAll(async () => {
  await eventsDb?.end();
  await client?.stack.shutdown();
}, 30000);

/** A website of the tenant (the websites domain's routes are another helper's: plain SQL). */
async function website(t: TestTenant): Promise<string> {
  const key = `tickets-${randomUUID().slice(0, 8)}.example`;
  const { rows } = await eventsDb.query(
    `INSERT INTO "Website" (id, "tenantId", name, url, "urlKey", published, "dateModified")
     VALUES (gen_random_uuid(), $1, 'Portal', $2, $3, true, now()) RETURNING id::text AS id`,
    [t.id, `https://${key}/`, key],
  );
  return rows[0].id;
}

/** A published event with one ticket type, open for public bookings at bookings-invitations. */
async function openEvent(t: TestTenant, title: string) {
  const created = await client.rest(t, 'POST', '/events', {
    title,
    startsAt: inDays(30, 18),
    endsAt: inDays(30, 21),
    timeZone: 'Europe/Berlin',
    venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
    capacity: 200,
    taxRateId: 'de-standard',
    status: 'scheduled',
  });
  if (created.status !== 201) throw new Error(`event: ${JSON.stringify(created.body)}`);
  const eventId: string = created.body.data.id;
  const type = await client.rest(t, 'POST', '/tickets', {
    eventId,
    name: 'Regular',
    price: '119',
    currency: 'EUR',
    quota: 100,
  });
  if (type.status !== 201) throw new Error(`ticket type: ${JSON.stringify(type.body)}`);
  const site = await website(t);
  const pub = await client.rest(t, 'PUT', `/events/${eventId}/publication`, {
    published: true,
    websiteIds: [site],
  });
  if (pub.status !== 200) throw new Error(`publish: ${JSON.stringify(pub.body)}`);
  return { eventId, typeId: type.body.data.id as string };
}

/** BK1: a public booking (no key) of `names.length` tickets; answers the booking. */
async function bookPublicly(
  t: TestTenant,
  ev: { eventId: string; typeId: string },
  names: string[],
) {
  let res: Awaited<ReturnType<Client['rest']>> | undefined;
  // the copy of the published event reaches bookings-invitations over JetStream
  await eventually(async () => {
    res = await client.rest(
      t,
      'POST',
      '/bookings/public',
      {
        eventId: ev.eventId,
        booker: { firstname: 'Bea', lastname: 'Booker', email: 'bea@example.com' },
        tickets: names.map((n) => ({
          ticketTypeId: ev.typeId,
          participant: { firstname: n, lastname: 'Guest', email: `${n.toLowerCase()}@example.com` },
        })),
      },
      { Authorization: undefined },
    );
    // the status and the reason together: a failure says why
    expect([res!.status, res!.body.message]).toEqual([201, null]);
  }, 20000);
  return res!.body.data;
}

let ev: { eventId: string; typeId: string };
let ticketIds: string[];

beforeAll(async () => {
  ev = await openEvent(a, 'Scanner night');
  const booking = await bookPublicly(a, ev, ['Ada', 'Bob', 'Cy']);
  const list = await client.rest(
    a,
    'GET',
    `/event-tickets?bookingId=${booking.id}&sort=participantFirstname`,
  );
  ticketIds = list.body.data.map((x: { id: string }) => x.id);
}, 120000);

describe('event tickets through the gateway', () => {
  it('ET1 lists the booked tickets, ET2 reads one with a code that ET13’s key verifies offline', async () => {
    expect(ticketIds).toHaveLength(3);
    const list = await client.rest(a, 'GET', `/event-tickets?eventId=${ev.eventId}&q=bob`);
    expect(list.status).toBe(200);
    expect(list.body.metaData.totalResults).toBe(1);
    expect(list.body.data[0]).toMatchObject({ participantFirstname: 'Bob', status: 'valid' });

    const read = await client.rest(a, 'GET', `/event-tickets/${ticketIds[0]}`);
    expect(read.status).toBe(200);
    const code: string = read.body.data.code;
    const pub = await client.rest(a, 'GET', `/event-tickets/verification?eventId=${ev.eventId}`);
    expect(pub.status).toBe(200);
    const [v, k, payload, sig] = code.split('.');
    const key = createPublicKey({ key: pub.body.data.publicKeyJwk, format: 'jwk' });
    expect(
      verify(null, Buffer.from(`${v}.${k}.${payload}`), key, Buffer.from(sig, 'base64url')),
    ).toBe(true);
    expect((await client.rest(a, 'GET', `/event-tickets/${randomUUID()}`)).status).toBe(404);
  });

  it('ET9 checks a ticket in once; a second scan is a 409 saying when and where; a retried nonce is 200', async () => {
    const code = (await client.rest(a, 'GET', `/event-tickets/${ticketIds[0]}`)).body.data.code;
    const first = await client.rest(a, 'POST', '/event-tickets/check-in', {
      code,
      nonce: 'e2e-1',
      location: 'North gate',
      eventId: ev.eventId,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ ticketId: ticketIds[0], participantFirstname: 'Ada' });
    const retry = await client.rest(a, 'POST', '/event-tickets/check-in', { code, nonce: 'e2e-1' });
    expect(retry.status).toBe(200);
    expect(retry.body.data.retried).toBe(true);
    const second = await client.rest(a, 'POST', '/event-tickets/check-in', {
      code,
      nonce: 'e2e-2',
    });
    expect(second.status).toBe(409);
    expect(second.body.data).toBeNull();
    // when, as a person at the gate reads it: the event's zone (Europe/Berlin), not raw UTC
    const local = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Berlin',
    }).format(new Date(first.body.data.checkedInAt));
    expect(second.body.message).toContain(local);
    expect(second.body.message).not.toContain(first.body.data.checkedInAt);
    expect(second.body.message).toContain('North gate');
    expect(second.body.errors[0]).toMatchObject({ field: 'code', rule: 'alreadyCheckedIn' });
    expect(second.body.errors[0].message).toContain('North gate');
    const tampered = await client.rest(a, 'POST', '/event-tickets/check-in', {
      code: code.slice(0, -4) + (code.endsWith('AAAA') ? 'BBBB' : 'AAAA'),
    });
    expect(tampered.status).toBe(400);
    expect(tampered.body.errors[0]).toMatchObject({ field: 'code', rule: 'invalidCode' });
  });

  it('ET4 summarises, ET3 and ET10 keep data, ET5 cancels (revoked in ET13), ET6-ET8 queue mails', async () => {
    const sum = await client.rest(a, 'GET', `/event-tickets/summary?eventId=${ev.eventId}`);
    expect(sum.body.data).toMatchObject({ total: 3, valid: 3, checkedIn: 1 });
    const data = await client.rest(a, 'PUT', `/event-tickets/${ticketIds[1]}/integration-data`, {
      ext: 1,
    });
    expect(data.body.data.integrationData).toEqual({ ext: 1 });
    const big = await client.rest(a, 'PUT', `/event-tickets/${ticketIds[1]}/integration-data`, {
      x: 'y'.repeat(17000),
    });
    expect(big.status).toBe(413);
    const info = await client.rest(
      a,
      'PUT',
      `/event-tickets/${ticketIds[1]}/participant-information`,
      {
        information: { diet: 'vegan' },
      },
    );
    expect(info.body.data.participantInformation).toEqual({ diet: 'vegan' });

    const cancel = await client.rest(a, 'PUT', '/event-tickets/status', {
      ids: [ticketIds[2]],
      status: 'cancelled',
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.changed).toBe(1);
    const back = await client.rest(a, 'PUT', '/event-tickets/status', {
      ids: [ticketIds[2]],
      status: 'valid',
    });
    expect(back.status).toBe(409);
    const revoked = await client.rest(
      a,
      'GET',
      `/event-tickets/verification?eventId=${ev.eventId}`,
    );
    expect(revoked.body.data.revoked.map((r: { ticketId: string }) => r.ticketId)).toEqual([
      ticketIds[2],
    ]);

    const resend = await client.rest(a, 'POST', '/event-tickets/resend', { ids: [ticketIds[0]] });
    expect(resend.status).toBe(200);
    expect(resend.body.data.queued).toBe(1);
    expect(
      (await client.rest(a, 'POST', '/event-tickets/resend', { ids: [ticketIds[2]] })).status,
    ).toBe(409);
    const mail = await client.rest(a, 'POST', '/event-tickets/mails', {
      ids: ticketIds.slice(0, 2),
      subject: 'Parking',
      text: 'Lot B',
    });
    expect(mail.body.data.queued).toBe(2);
    const filtered = await client.rest(a, 'POST', '/event-tickets/mails/filtered', {
      filter: { eventId: ev.eventId, status: 'valid', checkedIn: false },
      subject: 'Doors at 9',
      text: 'Come early',
    });
    expect(filtered.body.data.queued).toBe(1);
  });

  it('ET11 exports every ticket as CSV and XLSX; ET12 prints a ticket as PDF', async () => {
    const csv = await client.rest(
      a,
      'GET',
      `/event-tickets/export?eventId=${ev.eventId}&format=csv`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    expect((csv.body as string).trim().split('\n')).toHaveLength(4);
    const xlsx = await client.rest(
      a,
      'GET',
      `/event-tickets/export?eventId=${ev.eventId}&format=xlsx`,
    );
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    const pdf = await client.rest(a, 'GET', `/event-tickets/${ticketIds[0]}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('GraphQL: tickets with their Event from the events subgraph, check-in conflict', async () => {
    const res = await client.graphql(
      a,
      `query($e: ID!) {
        eventTickets(eventId: $e, sort: "participantFirstname") { totalResults items { id participantFirstname event { id title } } }
        eventTicketSummary(eventId: $e) { total cancelled }
      }`,
      { e: ev.eventId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.eventTickets.totalResults).toBe(3);
    expect(res.body.data.eventTickets.items[0].event).toEqual({
      id: ev.eventId,
      title: 'Scanner night',
    });
    expect(res.body.data.eventTicketSummary).toEqual({ total: 3, cancelled: 1 });
    const code = (await client.rest(a, 'GET', `/event-tickets/${ticketIds[0]}`)).body.data.code;
    const again = await client.graphql(
      a,
      `mutation($c: String!) { checkIn(input: { code: $c }) { ticketId } }`,
      { c: code },
    );
    expect(again.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it('another tenant sees, checks in and changes none of the tickets', async () => {
    const code = (await client.rest(a, 'GET', `/event-tickets/${ticketIds[1]}`)).body.data.code;
    const list = await client.rest(b, 'GET', `/event-tickets?eventId=${ev.eventId}`);
    expect(list.body.data).toEqual([]);
    const calls: [string, string, unknown?][] = [
      ['GET', `/event-tickets/${ticketIds[1]}`],
      ['GET', `/event-tickets/${ticketIds[1]}/pdf`],
      ['GET', `/event-tickets/summary?eventId=${ev.eventId}`],
      ['GET', `/event-tickets/verification?eventId=${ev.eventId}`],
      ['GET', `/event-tickets/export?eventId=${ev.eventId}`],
      ['PUT', `/event-tickets/${ticketIds[1]}/integration-data`, { x: 1 }],
      ['PUT', `/event-tickets/${ticketIds[1]}/participant-information`, { firstname: 'X' }],
      ['PUT', '/event-tickets/status', { ids: [ticketIds[1]], status: 'cancelled' }],
      ['POST', '/event-tickets/resend', { ids: [ticketIds[1]] }],
      ['POST', '/event-tickets/mails', { ids: [ticketIds[1]], subject: 's', text: 't' }],
      [
        'POST',
        '/event-tickets/mails/filtered',
        { filter: { eventId: ev.eventId }, subject: 's', text: 't' },
      ],
    ];
    for (const [method, p, body] of calls) {
      expect([method, p, (await client.rest(b, method, p, body)).status]).toEqual([method, p, 404]);
    }
    // B's scanner cannot check in A's ticket: the code is no code of B's
    expect((await client.rest(b, 'POST', '/event-tickets/check-in', { code })).status).toBe(400);
    const after = await client.rest(a, 'GET', `/event-tickets/${ticketIds[1]}`);
    expect(after.body.data).toMatchObject({
      status: 'valid',
      participantFirstname: 'Bob',
      checkIn: null,
    });
    expect(after.body.data.integrationData).toEqual({ ext: 1 });
  });
});
