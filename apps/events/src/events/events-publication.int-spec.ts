import { randomUUID } from 'node:crypto';
import { tenantHeaders } from '@crm/testing';
import { EventTestKit, errorsOf, inDays } from './test/event-test-kit';

// E11, E12 over REST and GraphQL: every missing piece listed, 409 with the same list, websites
// of the tenant only, outbox messages in the same transaction.

let t: EventTestKit;

beforeAll(async () => {
  t = await EventTestKit.start('events_it_publication');
}, 60000);
afterAll(async () => {
  await t?.close();
});

const ready = () => ({
  title: 'Publishable',
  startsAt: inDays(10, 18),
  endsAt: inDays(10, 20),
  timeZone: 'Europe/Berlin',
  venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
});

describe('E12 POST /events/{id}/publication/validate', () => {
  it('lists every missing piece by field', async () => {
    const e = await t.event({ title: 'Empty', status: 'cancelled' });
    const res = await t.call('POST', `/events/${e.id}/publication/validate`, {});
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(errorsOf(res.body.data)).toEqual([
      ['startsAt', 'requiredToPublish'],
      ['endsAt', 'requiredToPublish'],
      ['venue', 'venueOrOnlineMeeting'],
      ['websiteIds', 'noWebsite'],
      ['status', 'cancelled'],
    ]);
    expect(res.body.data.errors[0].message).toBe('startsAt is required to publish the event');
  });

  it('finds a start in the past and websites that are not the tenant’s', async () => {
    const mine = await t.website();
    const theirs = await t.website(t.B);
    const e = await t.event({ ...ready(), startsAt: inDays(-1, 10), endsAt: inDays(1, 10) });
    const res = await t.call('POST', `/events/${e.id}/publication/validate`, {
      websiteIds: [mine, theirs, randomUUID()],
    });
    expect(errorsOf(res.body.data)).toEqual([
      ['startsAt', 'startInPast'],
      ['websiteIds[1]', 'unknownWebsite'],
      ['websiteIds[2]', 'unknownWebsite'],
    ]);
    const ok = await t.event(ready());
    expect(
      (await t.call('POST', `/events/${ok.id}/publication/validate`, { websiteIds: [mine] })).body
        .data,
    ).toEqual({ valid: true, errors: [] });
    expect((await t.call('POST', `/events/${ok.id}/publication/validate`, {}, t.B)).status).toBe(
      404,
    );
    const malformed = await t.call('POST', `/events/${ok.id}/publication/validate`, {
      websiteIds: ['x'],
    });
    expect(malformed.status).toBe(400);
  });
});

describe('E11 PUT /events/{id}/publication', () => {
  it('refuses an invalid event with 409 and the same errors, changing nothing', async () => {
    const e = await t.event({ title: 'Not ready' });
    const res = await t.call('PUT', `/events/${e.id}/publication`, { published: true });
    expect(res.status).toBe(409);
    expect(errorsOf(res.body)).toEqual([
      ['startsAt', 'requiredToPublish'],
      ['endsAt', 'requiredToPublish'],
      ['venue', 'venueOrOnlineMeeting'],
      ['websiteIds', 'noWebsite'],
    ]);
    expect(res.body.message).toBe(
      'The event cannot be published: 4 things are missing (see errors)',
    );
    const de = await t.call('PUT', `/events/${e.id}/publication`, { published: true }, t.A, {
      'Accept-Language': 'de',
    });
    expect(de.body.message).toBe(
      'Die Veranstaltung kann nicht veröffentlicht werden: 4 Angaben fehlen (siehe errors)',
    );
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toEqual(e);
  });

  it('publishes on websites of the tenant with events.events.published, unpublishes keeping them', async () => {
    const site = await t.website();
    const other = await t.website();
    const e = await t.event(ready());
    const theirs = await t.website(t.B);
    const foreign = await t.call('PUT', `/events/${e.id}/publication`, {
      published: true,
      websiteIds: [theirs],
    });
    expect(foreign.status).toBe(409);
    expect(errorsOf(foreign.body)).toEqual([['websiteIds[0]', 'unknownWebsite']]);
    expect(foreign.body.message).toBe(
      'The event cannot be published: 1 thing is missing (see errors)',
    );
    expect(
      (
        await t.call(
          'PUT',
          `/events/${e.id}/publication`,
          { published: true, websiteIds: [site] },
          t.B,
        )
      ).status,
    ).toBe(404);

    const res = await t.call('PUT', `/events/${e.id}/publication`, {
      published: true,
      websiteIds: [site, other],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ published: true, sequence: 1, status: 'scheduled' });
    expect(res.body.data.websiteIds).toEqual([site, other].sort());
    expect(res.body.data.publishedAt).toMatch(/Z$/);
    const subjects = (await t.outbox(e.id)).map((o) => o.subject);
    expect(subjects).toEqual([
      'events.events.changed',
      'events.events.changed',
      'events.events.published',
    ]);
    const [published] = await t.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = 'events.events.published' AND payload->>'eventId' = $1`,
      [e.id],
    );
    expect(published.payload).toMatchObject({ tenantId: t.A, eventId: e.id, title: 'Publishable' });

    const list = await t.call('GET', `/events?websiteId=${other}&published=true`);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([e.id]);

    const off = await t.call('PUT', `/events/${e.id}/publication`, { published: false });
    expect(off.body.data).toMatchObject({
      published: false,
      publishedAt: null,
      sequence: 2,
      status: 'scheduled',
    });
    expect(off.body.data.websiteIds).toEqual([site, other].sort());
    const changed = await t.outbox(e.id);
    expect(changed.at(-1)).toMatchObject({
      subject: 'events.events.changed',
      payload: { published: false, sequence: 2 },
    });
    // unpublishing with websiteIds replaces them; an unknown one is a 400 here (nothing to publish)
    const bad = await t.call('PUT', `/events/${e.id}/publication`, {
      published: false,
      websiteIds: [randomUUID()],
    });
    expect(bad.status).toBe(400);
    const narrowed = await t.call('PUT', `/events/${e.id}/publication`, {
      published: false,
      websiteIds: [site],
    });
    expect(narrowed.body.data.websiteIds).toEqual([site]);
    // publishing again without websiteIds uses the stored ones
    const again = await t.call('PUT', `/events/${e.id}/publication`, { published: true });
    expect(again.body.data).toMatchObject({ published: true, websiteIds: [site] });
  });

  it('makes a published draft scheduled: CONFIRMED in E8 and the W16 feed (REST and GraphQL)', async () => {
    const site = await t.website();
    const e = await t.event(ready());
    expect(e.status).toBe('draft');
    const before = await t.call('GET', `/events/${e.id}/ical`);
    expect(before.text).toContain('STATUS:TENTATIVE');
    const res = await t.call('PUT', `/events/${e.id}/publication`, {
      published: true,
      websiteIds: [site],
    });
    expect(res.body.data).toMatchObject({ published: true, status: 'scheduled' });
    expect((await t.call('GET', `/events/${e.id}`)).body.data.status).toBe('scheduled');
    const [changed] = (await t.outbox(e.id)).filter(
      (o) => o.subject === 'events.events.changed' && o.payload.published === true,
    );
    expect(changed.payload).toMatchObject({ status: 'scheduled' });
    expect((await t.call('GET', `/events/${e.id}/ical`)).text).toContain('STATUS:CONFIRMED');
    const feed = await t.api.rest(
      'GET',
      `/websites/public/${site}/events.ics`,
      undefined,
      tenantHeaders(t.A),
    );
    expect(feed.status).toBe(200);
    expect(feed.text).toContain(`UID:${e.id}@`);
    expect(feed.text).toContain('STATUS:CONFIRMED');
    expect(feed.text).not.toContain('STATUS:TENTATIVE');

    const other = await t.event(ready());
    const gql = await t.gql(
      `mutation($id: ID!, $w: [ID!]) { updateEventPublication(id: $id, input: { published: true, websiteIds: $w }) { published status } }`,
      { id: other.id, w: [site] },
    );
    expect(gql.body.data.updateEventPublication).toEqual({ published: true, status: 'scheduled' });
  });

  it('keeps a published event publishable on E4, but lets it be cancelled', async () => {
    const site = await t.website();
    const e = await t.event(ready());
    await t.call('PUT', `/events/${e.id}/publication`, { published: true, websiteIds: [site] });
    const res = await t.call('PUT', `/events/${e.id}`, { title: 'No place' });
    expect(res.status).toBe(409);
    expect(errorsOf(res.body)).toEqual([
      ['startsAt', 'requiredToPublish'],
      ['endsAt', 'requiredToPublish'],
      ['venue', 'venueOrOnlineMeeting'],
    ]);
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toMatchObject({
      title: 'Publishable',
      sequence: 1,
    });
    const cancelled = await t.call('PUT', `/events/${e.id}`, { ...ready(), status: 'cancelled' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      published: true,
      sequence: 2,
    });
    const feed = await t.api.rest(
      'GET',
      `/websites/public/${site}/events.ics`,
      undefined,
      tenantHeaders(t.A),
    );
    expect(feed.text).toContain('STATUS:CANCELLED');
  });

  it('checks its body', async () => {
    const e = await t.event(ready());
    expect(errorsOf((await t.call('PUT', `/events/${e.id}/publication`, {})).body)).toEqual([
      ['published', 'isDefined'],
    ]);
    expect(
      errorsOf((await t.call('PUT', `/events/${e.id}/publication`, { published: 'yes' })).body),
    ).toEqual([['published', 'isBoolean']]);
  });

  it('works over GraphQL with CONFLICT for an invalid event', async () => {
    const site = await t.website();
    const e = await t.event(ready());
    const empty = await t.event({ title: 'Nothing' });
    const conflict = await t.gql(
      `mutation($id: ID!) { updateEventPublication(id: $id, input: { published: true }) { id } }`,
      { id: empty.id },
    );
    expect(conflict.body.errors[0].extensions.code).toBe('CONFLICT');
    const check = await t.gql(
      `mutation($id: ID!) { validateEventPublication(id: $id) { valid errors { field rule } } }`,
      { id: empty.id },
    );
    expect(check.body.data.validateEventPublication.valid).toBe(false);
    const ok = await t.gql(
      `mutation($id: ID!, $w: [ID!]) { updateEventPublication(id: $id, input: { published: true, websiteIds: $w }) { published websiteIds } }`,
      { id: e.id, w: [site] },
    );
    expect(ok.body.data.updateEventPublication).toEqual({ published: true, websiteIds: [site] });
  });
});

describe('E11, E12 ask bookings-invitations for the event’s ticket types', () => {
  it('an event without an active ticket type is not publishable: listed by E12, 409 on E11, in en and de', async () => {
    const site = await t.website();
    const e = await t.event(ready());
    t.ticketTypes.set(e.id, { total: 2, active: 0 });
    const check = await t.call('POST', `/events/${e.id}/publication/validate`, {
      websiteIds: [site],
    });
    expect(check.body.data.valid).toBe(false);
    expect(errorsOf(check.body.data)).toEqual([['ticketTypes', 'noActiveTicketType']]);
    expect(check.body.data.errors[0].message).toBe(
      'ticketTypes: the event needs at least one active ticket type to be published (2 ticket types, none active)',
    );
    expect(t.ticketTypes.asked.at(-1)).toEqual({ tenantId: t.A, eventId: e.id });

    const de = await t.call(
      'PUT',
      `/events/${e.id}/publication`,
      { published: true, websiteIds: [site] },
      t.A,
      { 'Accept-Language': 'de' },
    );
    expect(de.status).toBe(409);
    expect(errorsOf(de.body)).toEqual([['ticketTypes', 'noActiveTicketType']]);
    expect(de.body.errors[0].message).toContain('mindestens eine aktive Ticketart');
    expect(de.body.message).toBe(
      'Die Veranstaltung kann nicht veröffentlicht werden: 1 Angabe fehlt (siehe errors)',
    );
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toMatchObject({
      published: false,
      sequence: 0,
    });

    t.ticketTypes.set(e.id, { total: 2, active: 1 });
    const ok = await t.call('PUT', `/events/${e.id}/publication`, {
      published: true,
      websiteIds: [site],
    });
    expect(ok.status).toBe(200);
  });

  it('when bookings-invitations does not answer: E12 lists it, E11 publishing is a 503 naming it, unpublishing works', async () => {
    const site = await t.website();
    const e = await t.event(ready());
    const published = await t.event(ready());
    expect(
      (
        await t.call('PUT', `/events/${published.id}/publication`, {
          published: true,
          websiteIds: [site],
        })
      ).status,
    ).toBe(200);
    await t.ticketTypes.stop();
    try {
      const check = await t.call('POST', `/events/${e.id}/publication/validate`, {
        websiteIds: [site],
      });
      expect(check.status).toBe(200);
      expect(errorsOf(check.body.data)).toEqual([['ticketTypes', 'ticketTypesUnavailable']]);
      expect(check.body.data.errors[0].message).toContain('bookings-invitations did not answer');

      const res = await t.call('PUT', `/events/${e.id}/publication`, {
        published: true,
        websiteIds: [site],
      });
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('bookings-invitations');
      expect((await t.call('GET', `/events/${e.id}`)).body.data).toMatchObject({
        published: false,
        sequence: 0,
      });
      // a foreign or unknown event stays a 404, not a 503
      expect(
        (await t.call('PUT', `/events/${e.id}/publication`, { published: true }, t.B)).status,
      ).toBe(404);
      const off = await t.call('PUT', `/events/${published.id}/publication`, { published: false });
      expect(off.status).toBe(200);
    } finally {
      await t.ticketTypes.start();
    }
  });
});
