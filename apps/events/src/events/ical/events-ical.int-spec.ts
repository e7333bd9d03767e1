import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { tenantHeaders } from '@crm/testing';
import { EventTestKit, inDays } from '../test/event-test-kit';

// E8 and the public feed W16 against the running service, read back with ical.js.

let t: EventTestKit;

beforeAll(async () => {
  t = await EventTestKit.start('events_it_ical', {
    ICAL_UID_HOST: 'events.test',
    PUBLIC_CACHE_MAX_AGE_S: '120',
  });
}, 60000);
afterAll(async () => {
  await t?.close();
});

const vevents = (text: string) => {
  const cal = new ICAL.Component(ICAL.parse(text));
  for (const z of cal.getAllSubcomponents('vtimezone'))
    ICAL.TimezoneService.register(new ICAL.Timezone(z));
  return cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
};
afterEach(() => ICAL.TimezoneService.reset());

describe('E8 GET /events/{id}/ical', () => {
  it('answers the event as text/calendar with a stable UID and a SEQUENCE that grows', async () => {
    const e = await t.event({
      title: 'Winter concert',
      startsAt: '2027-01-15T18:00:00Z',
      endsAt: '2027-01-15T20:00:00Z',
      timeZone: 'Europe/Berlin',
      venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
      contactPerson: { firstname: 'Erika', lastname: 'Muster', email: 'erika@example.com' },
    });
    await t.call('PUT', `/events/${e.id}/notes`, { note: 'SECRET NOTE' });
    const res = await t.call('GET', `/events/${e.id}/ical`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.text).not.toContain('SECRET');
    const [v] = vevents(res.text);
    expect(v.uid).toBe(`${e.id}@events.test`);
    expect(v.sequence).toBe(0);
    expect(v.startDate.hour).toBe(19);
    expect(v.startDate.toJSDate().toISOString()).toBe('2027-01-15T18:00:00.000Z');
    expect(v.organizer).toBe('mailto:erika@example.com');
    const moved = await t.call('PUT', `/events/${e.id}`, {
      title: 'Winter concert (moved)',
      startsAt: '2027-01-16T18:00:00Z',
      endsAt: '2027-01-16T20:00:00Z',
      venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
    });
    expect(moved.status).toBe(200);
    const again = vevents((await t.call('GET', `/events/${e.id}/ical`)).text)[0];
    expect(again.uid).toBe(v.uid);
    expect(again.sequence).toBe(1);
    expect(again.startDate.toJSDate().toISOString()).toBe('2027-01-16T18:00:00.000Z');
    expect((await t.call('GET', `/events/${e.id}/ical`, undefined, t.B)).status).toBe(404);
    expect((await t.call('GET', `/events/${randomUUID()}/ical`)).status).toBe(404);
  });
});

describe('W16 GET /websites/public/{id}/events.ics', () => {
  it('lists only the published events of a published website of the tenant, cacheable', async () => {
    const site = await t.website(t.A, true, 'Portal');
    const other = await t.website(t.A, true, 'Other');
    const hidden = await t.website(t.A, false, 'Hidden');
    const body = (title: string, days: number) => ({
      title,
      startsAt: inDays(days, 18),
      endsAt: inDays(days, 20),
      venue: { city: 'Berlin' },
    });
    const pub = await t.event(body('Published', 5));
    const draft = await t.event(body('Unpublished', 6));
    const elsewhere = await t.event(body('Elsewhere', 7));
    await t.call('PUT', `/events/${pub.id}/notes`, { note: 'SECRET NOTE' });
    for (const [id, w] of [
      [pub.id, site],
      [elsewhere.id, other],
    ]) {
      const r = await t.call('PUT', `/events/${id}/publication`, {
        published: true,
        websiteIds: [w],
      });
      expect(r.status).toBe(200);
    }
    // on the website but unpublished: stored websites stay when unpublishing
    await t.call('PUT', `/events/${draft.id}/publication`, { published: true, websiteIds: [site] });
    await t.call('PUT', `/events/${draft.id}/publication`, { published: false });

    const url = `${t.svc.url}/v1/crm/websites/public/${site}/events.ics`;
    // public: the tenant header, no API key
    const headers = tenantHeaders(t.A);
    const res = await fetch(url, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=120');
    expect(res.headers.get('vary')).toBe('X-Service-TenantId');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const text = await res.text();
    const events = vevents(text);
    expect(events.map((v) => v.summary)).toEqual(['Published']);
    expect(events[0].uid).toBe(`${pub.id}@events.test`);
    expect(events[0].component.getFirstPropertyValue('url')).toMatch(
      new RegExp(`/events/${pub.id}$`),
    );
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('Unpublished');

    const cached = await fetch(url, { headers: { ...headers, 'If-None-Match': etag! } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    // a change gives a new ETag
    await t.call('PUT', `/events/${pub.id}`, {
      title: 'Published (new title)',
      startsAt: inDays(5, 18),
      endsAt: inDays(5, 20),
      venue: { city: 'Berlin' },
    });
    const changed = await fetch(url, { headers: { ...headers, 'If-None-Match': etag! } });
    expect(changed.status).toBe(200);
    expect(vevents(await changed.text())[0].sequence).toBe(2);

    const status = async (id: string, tenant = t.A) =>
      (
        await fetch(`${t.svc.url}/v1/crm/websites/public/${id}/events.ics`, {
          headers: tenantHeaders(tenant),
        })
      ).status;
    expect(await status(hidden)).toBe(404);
    expect(await status(site, t.B)).toBe(404);
    expect(await status(randomUUID())).toBe(404);
    expect(await status('nope')).toBe(404);
    const noTenant = await fetch(url, {
      headers: { 'X-Integration-Name': 'x', 'X-Integration-Provider': 'y' },
    });
    expect(noTenant.status).toBe(400);
  });
});
