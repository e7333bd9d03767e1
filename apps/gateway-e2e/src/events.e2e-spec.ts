import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { Client as Pg } from 'pg';
import { tenantHeaders } from '@crm/testing';
import { BOOKING_SERVICES, Client, inDays, startIsolatedClient, TestTenant } from './client';

// E1-E12 and the public feed W16 through the gateway, REST: one success and the main failure per
// row, and another tenant's ids answering 404 with nothing changed. Websites and settings entries
// are written straight into the events database (other helpers' routes); bookings-invitations
// answers the publication check (an event needs an active ticket type).

jest.setTimeout(60000);

let client: Client;
let a: TestTenant;
let b: TestTenant;
let pg: Pg;

beforeAll(async () => {
  client = await startIsolatedClient('events-events', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
  pg = new Pg({ connectionString: client.stack.processes.get('events')!.env.DATABASE_URL });
  await pg.connect();
}, 120000);
afterAll(async () => {
  await pg?.end();
  await client?.stack.shutdown();
}, 30000);

const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

async function website(t: TestTenant, published = true): Promise<string> {
  const key = `portal-${randomUUID().slice(0, 8)}.example`;
  const { rows } = await pg.query(
    `INSERT INTO "Website" (id, "tenantId", name, url, "urlKey", published, "dateModified")
     VALUES (gen_random_uuid(), $1, 'Portal', $2, $3, $4, now()) RETURNING id::text AS id`,
    [t.id, `https://${key}/`, key, published],
  );
  return rows[0].id;
}

const body = (title: string, days = 20) => ({
  title,
  startsAt: inDays(days, 18),
  endsAt: inDays(days, 20),
  timeZone: 'Europe/Berlin',
  venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
  orgaTags: [{ text: 'E2E' }],
});

async function create(t: TestTenant, b: Record<string, unknown>): Promise<string> {
  const res = await client.rest(t, 'POST', '/events', b);
  if (res.status !== 201) throw new Error(`create event: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** The stored event row with its tags and websites, for "nothing changed". */
async function snapshot(id: string) {
  const event = await pg.query(`SELECT * FROM "Event" WHERE id = $1`, [id]);
  const tags = await pg.query(`SELECT "entryId" FROM "EventTag" WHERE "eventId" = $1 ORDER BY 1`, [
    id,
  ]);
  const sites = await pg.query(
    `SELECT "websiteId" FROM "EventWebsite" WHERE "eventId" = $1 ORDER BY 1`,
    [id],
  );
  return { event: event.rows, tags: tags.rows, sites: sites.rows };
}

describe('events through the gateway', () => {
  it('E3 creates, E2 reads, E4 updates, E7 validates', async () => {
    const res = await client.rest(a, 'POST', '/events', body('Gateway gala'));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      title: 'Gateway gala',
      timeZone: 'Europe/Berlin',
      orgaTags: [{ text: 'E2E' }],
      sequence: 0,
      published: false,
    });
    const id = res.body.data.id;
    expect((await client.rest(a, 'GET', `/events/${id}`)).body.data.title).toBe('Gateway gala');
    const bad = await client.rest(a, 'POST', '/events', { title: '', capacity: 0 });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([
      ['title', 'isNotEmpty'],
      ['capacity', 'min'],
    ]);
    const upd = await client.rest(a, 'PUT', `/events/${id}`, {
      ...body('Gateway gala 2'),
      capacity: 10,
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({ title: 'Gateway gala 2', capacity: 10, sequence: 1 });
    const order = await client.rest(a, 'PUT', `/events/${id}`, {
      title: 'x',
      startsAt: inDays(3, 12),
      endsAt: inDays(3, 10),
    });
    expect(errorsOf(order.body)).toEqual([['endsAt', 'endsAfterStart']]);
    const valid = await client.rest(a, 'POST', '/events/validate', body('Valid'));
    expect(valid.status).toBe(200);
    expect(valid.body.data).toEqual({ valid: true, errors: [] });
    const invalid = await client.rest(a, 'POST', '/events/validate', { capacity: 0 });
    expect(invalid.body.data.valid).toBe(false);
  });

  it('E1 lists with filters and paging', async () => {
    await create(a, body('Listed alpha', 40));
    await create(a, body('Listed beta', 41));
    const res = await client.rest(a, 'GET', '/events?q=listed&sort=-title&pageSize=1');
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { title: string }) => e.title)).toEqual(['Listed beta']);
    expect(res.body.metaData.totalResults).toBe(2);
    expect((await client.rest(b, 'GET', '/events?q=listed')).body.metaData.totalResults).toBe(0);
    const bad = await client.rest(a, 'GET', '/events?sort=capacity');
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['sort', 'unknownSortField']]);
  });

  it('E11 publishes after E12 lists what is missing; W16 shows it publicly; E8 answers iCalendar', async () => {
    const site = await website(a);
    const empty = await create(a, { title: 'Empty' });
    const check = await client.rest(a, 'POST', `/events/${empty}/publication/validate`, {});
    expect(check.status).toBe(200);
    expect(errorsOf(check.body.data)).toEqual([
      ['startsAt', 'requiredToPublish'],
      ['endsAt', 'requiredToPublish'],
      ['venue', 'venueOrOnlineMeeting'],
      ['ticketTypes', 'noActiveTicketType'],
      ['websiteIds', 'noWebsite'],
    ]);
    const refused = await client.rest(a, 'PUT', `/events/${empty}/publication`, {
      published: true,
    });
    expect(refused.status).toBe(409);
    expect(errorsOf(refused.body)).toEqual(errorsOf(check.body.data));

    const id = await create(a, body('Public gala', 9));
    await create(a, body('Hidden draft', 9));
    const ticketType = await client.rest(a, 'POST', '/tickets', {
      eventId: id,
      name: 'Standard',
      price: '25',
      currency: 'EUR',
    });
    expect(ticketType.status).toBe(201);
    const pub = await client.rest(a, 'PUT', `/events/${id}/publication`, {
      published: true,
      websiteIds: [site],
    });
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({ published: true, websiteIds: [site] });
    await client.rest(a, 'PUT', `/events/${id}/notes`, { note: 'SECRET NOTE' });

    const ics = await client.rest(a, 'GET', `/events/${id}/ical`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const vevent = new ICAL.Component(ICAL.parse(ics.body as string)).getFirstSubcomponent(
      'vevent',
    )!;
    expect(vevent.getFirstPropertyValue('summary')).toBe('Public gala');
    expect(String(vevent.getFirstPropertyValue('uid'))).toBe(`${id}@crm-events`);
    expect((await client.rest(b, 'GET', `/events/${id}/ical`)).status).toBe(404);

    // public: no API key, the tenant header is enough
    const url = `/v1/crm/websites/public/${site}/events.ics`;
    const feed = await client.raw(url, { headers: tenantHeaders(a.id) });
    expect(feed.status).toBe(200);
    const text = feed.body as string;
    expect(text).toContain('Public gala');
    expect(text).not.toContain('Hidden draft');
    expect(text).not.toContain('SECRET');
    expect(feed.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const again = await client.raw(url, {
      headers: { ...tenantHeaders(a.id), 'If-None-Match': feed.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect((await client.raw(url, { headers: tenantHeaders(b.id) })).status).toBe(404);
    const hidden = await website(a, false);
    expect(
      (
        await client.raw(`/v1/crm/websites/public/${hidden}/events.ics`, {
          headers: tenantHeaders(a.id),
        })
      ).status,
    ).toBe(404);
  });

  it('E9 duplicates, E10 sets the note', async () => {
    const id = await create(a, body('Original'));
    const dup = await client.rest(a, 'POST', `/events/${id}/duplicate`);
    expect(dup.status).toBe(201);
    expect(dup.body.data).toMatchObject({
      title: 'Original',
      sequence: 0,
      published: false,
      websiteIds: [],
    });
    expect(dup.body.data.id).not.toBe(id);
    const note = await client.rest(a, 'PUT', `/events/${id}/notes`, { note: 'internal' });
    expect(note.status).toBe(200);
    expect(note.body.data.note).toBe('internal');
    const long = await client.rest(a, 'PUT', `/events/${id}/notes`, { note: 'x'.repeat(10001) });
    expect(errorsOf(long.body)).toEqual([['note', 'maxLength']]);
  });

  it('E5 deletes one, E6 deletes several all or nothing', async () => {
    const one = await create(a, body('Delete me'));
    const del = await client.rest(a, 'DELETE', `/events/${one}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deletedIds: [one] });
    expect((await client.rest(a, 'GET', `/events/${one}`)).status).toBe(404);
    const x = await create(a, body('X'));
    const y = await create(a, body('Y'));
    const refused = await client.rest(a, 'DELETE', '/events/batch', { ids: [x, randomUUID()] });
    expect(refused.status).toBe(404);
    expect(errorsOf(refused.body)).toEqual([['ids[1]', 'unknownEvent']]);
    const ok = await client.rest(a, 'DELETE', '/events/batch', { ids: [x, y] });
    expect(ok.status).toBe(200);
    expect(ok.body.data.deletedIds.sort()).toEqual([x, y].sort());
  });

  it("answers 404 on every route for another tenant's event, with nothing changed", async () => {
    const site = await website(b);
    const id = await create(a, body('Mine'));
    const before = await snapshot(id);
    const calls: [string, string, unknown?][] = [
      ['GET', `/events/${id}`],
      ['PUT', `/events/${id}`, body('Theirs')],
      ['DELETE', `/events/${id}`],
      ['GET', `/events/${id}/ical`],
      ['POST', `/events/${id}/duplicate`],
      ['PUT', `/events/${id}/notes`, { note: 'x' }],
      ['PUT', `/events/${id}/publication`, { published: true, websiteIds: [site] }],
      ['POST', `/events/${id}/publication/validate`, {}],
      ['DELETE', '/events/batch', { ids: [id] }],
    ];
    for (const [method, path, payload] of calls) {
      const res = await client.rest(b, method, path, payload);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect(await snapshot(id)).toEqual(before);
    expect(
      (await client.rest(b, 'GET', '/events')).body.data.map((e: { id: string }) => e.id),
    ).not.toContain(id);
  });
});
