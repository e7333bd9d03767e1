import pg from 'pg';
import sharp from 'sharp';
import { png, uploadHeaders } from '@crm/testing';
import { EventsKit } from '../test/events-kit';
import { asTenantDo } from '../test/scopes';

// W8, W10 (public): one event published and one unpublished in the same website, one published
// only on an unpublished website, and a published one in another tenant. Every public answer is
// checked for internal fields at any depth; unknown and hidden answer the same 404.

jest.setTimeout(60000);

let kit: EventsKit;
let A: string;
let B: string;
const f: Record<string, string> = {};
const SLUG = Date.now().toString(36);

/** Every key and every string value of a JSON body, at any depth. */
function walk(v: unknown, keys: Set<string>, values: Set<string>) {
  if (Array.isArray(v)) v.forEach((x) => walk(x, keys, values));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      keys.add(k);
      walk(x, keys, values);
    }
  } else if (typeof v === 'string') values.add(v);
}
const FORBIDDEN_KEYS = [
  'note',
  'orgaTags',
  'tags',
  'createdBy',
  'modifiedBy',
  'createdByUserId',
  'modifiedByUserId',
  'tenantId',
  'templateId',
  'personId',
  'sequence',
  'urlKey',
  'published',
];
function expectNoLeak(body: unknown) {
  const keys = new Set<string>();
  const values = new Set<string>();
  walk(body, keys, values);
  for (const k of FORBIDDEN_KEYS)
    expect({ key: k, present: keys.has(k) }).toEqual({ key: k, present: false });
  const text = JSON.stringify(body);
  for (const secret of [
    f.unpublishedWebsite,
    f.orgaTag,
    f.personId,
    f.templateId,
    'SECRET-NOTE',
    'https://meet.example.com/secret',
    A,
    B,
    f.eventB,
    f.websiteB,
    f.hiddenEvent,
    'integration-x',
  ]) {
    expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
  }
}

beforeAll(async () => {
  kit = await EventsKit.start('events_it_websites_public');
  ({ A, B } = kit);
  const db = kit.db;
  // the rows of tenant A, written as A (kit.website and kit.event write as their tenant too)
  const asA = <T>(work: () => PromiseLike<T>) => asTenantDo(A, work);
  f.website = await kit.website({
    url: `https://public-${SLUG}a.example.com/events`,
    published: true,
    name: 'Portal A',
  });
  await asA(() =>
    db.website.update({
      where: { id: f.website },
      data: {
        language: 'en',
        config: {
          imprintUrl: 'https://a.example/imprint',
          privacyUrl: 'https://a.example/privacy',
          texts: [],
        },
        createdBy: 'integration-x',
      },
    }),
  );
  f.unpublishedWebsite = await kit.website({
    url: `https://hidden-${SLUG}a.example.com`,
    name: 'Hidden portal',
  });
  const entry = (
    list: 'ORGA_TAGS' | 'PORTAL_TAGS' | 'EVENT_CATEGORIES' | 'CONTRIBUTOR_ROLES',
    text: string,
    tenantId = A,
  ) =>
    asTenantDo(tenantId, () =>
      db.eventSettingsEntry.create({ data: { tenantId, list, text }, select: { id: true } }),
    ).then((r) => r.id);
  f.orgaTag = await entry('ORGA_TAGS', 'internal-vip');
  f.portalTag = await entry('PORTAL_TAGS', 'Family');
  f.category = await entry('EVENT_CATEGORIES', 'Workshop');
  f.role = await entry('CONTRIBUTOR_ROLES', 'Speaker');
  f.personId = '0b5f1c9e-4f7a-4c55-9f6e-1d2b3c4d5e6f';
  f.templateId = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';
  f.event = await kit.event({
    title: 'Open day',
    published: true,
    websiteIds: [f.website, f.unpublishedWebsite],
    note: 'SECRET-NOTE',
  });
  await asA(() =>
    db.event.update({
      where: { id: f.event },
      data: {
        categoryId: f.category,
        venue: { name: 'Hall 1', city: 'Berlin', country: 'DE' },
        onlineMeeting: { platformId: 'zoom', url: 'https://meet.example.com/secret' },
        contributors: [{ name: 'Ada', roleId: f.role, personId: f.personId }],
        contactPerson: {
          templateId: f.templateId,
          firstname: 'Grace',
          lastname: 'Hopper',
          email: 'g@example.com',
        },
        createdBy: 'integration-x',
        modifiedBy: 'integration-x',
        tags: {
          create: [
            { tenantId: A, entryId: f.orgaTag },
            { tenantId: A, entryId: f.portalTag },
          ],
        },
      },
    }),
  );
  f.formSet = await asA(() =>
    db.eventSettingsEntry.create({
      data: {
        tenantId: A,
        list: 'BOOKING_FORM_FIELD_SETS',
        text: 'Standard form',
        data: {
          fields: [
            { key: 'company', label: 'Company', type: 'text', required: false },
            {
              key: 'meal',
              label: 'Meal',
              type: 'select',
              required: true,
              options: ['Veggie', 'Meat'],
            },
          ],
        },
      },
      select: { id: true },
    }),
  ).then((r) => r.id);
  await asA(() =>
    db.event.update({ where: { id: f.event }, data: { bookingFormFieldSetId: f.formSet } }),
  );
  f.noFormEvent = await kit.event({ title: 'No form', published: true, websiteIds: [f.website] });
  f.hiddenEvent = await kit.event({ title: 'Draft', published: false, websiteIds: [f.website] });
  f.onHiddenWebsite = await kit.event({
    title: 'Only hidden',
    published: true,
    websiteIds: [f.unpublishedWebsite],
  });
  f.websiteB = await kit.website(
    { url: `https://public-${SLUG}b.example.com`, published: true },
    B,
  );
  f.eventB = await kit.event({ title: 'B event', published: true, websiteIds: [f.websiteB] }, B);
}, 90000);
afterAll(async () => {
  await kit?.close();
});

const get = (path: string, tenant = A, extra: Record<string, string> = {}) =>
  kit.api.rest('GET', path, undefined, {
    'X-Integration-Name': 'portal',
    'X-Integration-Provider': 'web',
    'X-Service-TenantId': tenant,
    ...extra,
  });

describe('W8 GET /websites/public/events/{eventId}', () => {
  it('answers the public shape of a published event, leaking nothing, cacheable', async () => {
    const res = await get(`/websites/public/events/${f.event}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: f.event,
      title: 'Open day',
      subtitle: null,
      description: null,
      startsAt: null,
      endsAt: null,
      timeZone: 'Europe/Berlin',
      venue: { name: 'Hall 1', street: null, zip: null, city: 'Berlin', country: 'DE' },
      onlineMeeting: { platformId: 'zoom' },
      capacity: null,
      category: { id: f.category, text: 'Workshop' },
      contributors: [{ name: 'Ada', role: { id: f.role, text: 'Speaker' } }],
      contactPerson: {
        salutation: null,
        title: null,
        firstname: 'Grace',
        lastname: 'Hopper',
        position: null,
        email: 'g@example.com',
        phone: null,
      },
      portalTags: [{ id: f.portalTag, text: 'Family', color: null }],
      status: 'draft',
      publishedAt: null,
      websites: [
        { id: f.website, name: 'Portal A', url: `https://public-${SLUG}a.example.com/events` },
      ],
      images: [],
    });
    expectNoLeak(res.body);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('vary')).toContain('X-Service-TenantId');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    const again = await get(`/websites/public/events/${f.event}`, A, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const stale = await get(`/websites/public/events/${f.event}`, A, {
      'If-None-Match': 'W/"other"',
    });
    expect(stale.status).toBe(200);
  });

  it('reads the event with its websites and tags, entry texts and images in three statements', async () => {
    // a portal's hottest read: no statement per relation, no second look for the event
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    try {
      expect((await get(`/websites/public/events/${f.event}`)).status).toBe(200);
      const statements = spy.mock.calls
        .map(([q]) => (typeof q === 'string' ? q : String((q as { text?: string })?.text)))
        // the outbox relay and the webhook worker poll meanwhile
        .filter((q) =>
          /"(Event|EventImage|EventSettingsEntry|Website|EventWebsite|EventTag)"/.test(q),
        );
      expect(statements).toHaveLength(3);
    } finally {
      spy.mockRestore();
    }
  });

  it("the same 404 for unpublished, only on an unpublished website, another tenant's, unknown, malformed", async () => {
    const answers = await Promise.all([
      get(`/websites/public/events/${f.hiddenEvent}`),
      get(`/websites/public/events/${f.onHiddenWebsite}`),
      get(`/websites/public/events/${f.eventB}`),
      get(`/websites/public/events/${f.event}`, B),
      get('/websites/public/events/6f1c0d52-3a55-4a2e-9d7e-0f3b8a9b1c2d'),
      get('/websites/public/events/nope'),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.body).toEqual({ ...answers[0].body, metaData: expect.any(Object) });
      expectNoLeak(a.body);
      expect(a.headers.get('cache-control') ?? '').not.toContain('public');
    }
  });

  it('the tenant header is still required', async () => {
    const res = await kit.api.rest('GET', `/websites/public/events/${f.event}`, undefined, {
      'X-Integration-Name': 'portal',
      'X-Integration-Provider': 'web',
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('Open day');
  });
});

describe('W9 GET /websites/public/events/{eventId}/booking-form', () => {
  it("answers the fields of the event's field set, cacheable, leaking nothing", async () => {
    const res = await get(`/websites/public/events/${f.event}/booking-form`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      eventId: f.event,
      fields: [
        { key: 'company', label: 'Company', type: 'text', required: false, options: null },
        { key: 'meal', label: 'Meal', type: 'select', required: true, options: ['Veggie', 'Meat'] },
      ],
    });
    expectNoLeak(res.body);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = res.headers.get('etag')!;
    expect(
      (await get(`/websites/public/events/${f.event}/booking-form`, A, { 'If-None-Match': etag }))
        .status,
    ).toBe(304);
    const none = await get(`/websites/public/events/${f.noFormEvent}/booking-form`);
    expect(none.body.data).toEqual({ eventId: f.noFormEvent, fields: [] });
  });

  it('the same 404 for every hidden event', async () => {
    const answers = await Promise.all([
      get(`/websites/public/events/${f.hiddenEvent}/booking-form`),
      get(`/websites/public/events/${f.onHiddenWebsite}/booking-form`),
      get(`/websites/public/events/${f.eventB}/booking-form`),
      get(`/websites/public/events/${f.event}/booking-form`, B),
      get('/websites/public/events/nope/booking-form'),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.body.message).toBe(answers[0].body.message);
      expectNoLeak(a.body);
    }
  });
});

describe('W10 GET /websites/public/config?url=', () => {
  it('finds the published website by its normalised url, leaking nothing', async () => {
    for (const url of [
      `https://public-${SLUG}a.example.com/events`,
      `http://WWW.public-${SLUG}a.example.com:80/events/?utm_source=x#top`,
    ]) {
      const res = await get(`/websites/public/config?url=${encodeURIComponent(url)}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id: f.website,
        name: 'Portal A',
        url: `https://public-${SLUG}a.example.com/events`,
        description: null,
        language: 'en',
        config: expect.objectContaining({ imprintUrl: 'https://a.example/imprint' }),
        images: [],
      });
      expectNoLeak(res.body);
      expect(res.headers.get('etag')).toMatch(/^W\//);
    }
    const etag = (
      await get(`/websites/public/config?url=https://public-${SLUG}a.example.com/events`)
    ).headers.get('etag')!;
    expect(
      (
        await get(`/websites/public/config?url=https://public-${SLUG}a.example.com/events/`, A, {
          'If-None-Match': etag,
        })
      ).status,
    ).toBe(304);
  });

  it("404 for an unpublished website, another tenant's, a bad url; 400 without url", async () => {
    for (const [url, tenant] of [
      [`https://hidden-${SLUG}a.example.com`, A],
      [`https://public-${SLUG}b.example.com`, A],
      [`https://public-${SLUG}a.example.com/events`, B],
      ['not a url', A],
    ]) {
      const res = await get(`/websites/public/config?url=${encodeURIComponent(url)}`, tenant);
      expect({ url, tenant, status: res.status }).toEqual({ url, tenant, status: 404 });
      expectNoLeak(res.body);
    }
    const none = await get('/websites/public/config');
    expect(none.status).toBe(400);
    expect(none.body.errors[0]).toMatchObject({ field: 'url', rule: 'isDefined' });
  });
});

describe('public images (ours): the galleries of a public event and a published website', () => {
  const upload = async (path: string, tenant = A) =>
    kit.api.upload(
      path,
      { data: await png(300, 200), name: 'p.png', type: 'image/png' },
      uploadHeaders(tenant),
    );

  it('W8 and W10 list them with public addresses that answer the bytes; hidden ones 404', async () => {
    const event = await kit.event({
      title: 'With images',
      published: true,
      websiteIds: [f.website],
    });
    const eventImage = (await upload(`/events/${event}/images`)).body.data.id;
    const siteImage = (await upload(`/websites/${f.website}/images`)).body.data.id;
    const hiddenImage = (await upload(`/events/${f.hiddenEvent}/images`)).body.data.id;
    const hiddenSiteImage = (await upload(`/websites/${f.unpublishedWebsite}/images`)).body.data.id;

    const w8 = await get(`/websites/public/events/${event}`);
    expect(w8.body.data.images).toEqual([
      {
        id: eventImage,
        sizes: expect.arrayContaining([
          {
            size: 'small',
            width: 300,
            height: 200,
            url: `/v1/crm/websites/public/events/${event}/images/${eventImage}?size=small`,
          },
        ]),
      },
    ]);
    expectNoLeak(w8.body);
    expect(JSON.stringify(w8.body)).not.toContain('p.png');
    const bytes = await get(w8.body.data.images[0].sizes[0].url.replace('/v1/crm', ''));
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/webp');
    expect(bytes.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await sharp(bytes.bytes).metadata()).format).toBe('webp');
    const etag = bytes.headers.get('etag')!;
    expect(
      (
        await get(w8.body.data.images[0].sizes[0].url.replace('/v1/crm', ''), A, {
          'If-None-Match': etag,
        })
      ).status,
    ).toBe(304);

    const w10 = await get(`/websites/public/config?url=https://public-${SLUG}a.example.com/events`);
    expect(w10.body.data.images.map((i: { id: string }) => i.id)).toEqual([siteImage]);
    expect((await get(w10.body.data.images[0].sizes[0].url.replace('/v1/crm', ''))).status).toBe(
      200,
    );

    const hidden = await Promise.all([
      get(`/websites/public/events/${f.hiddenEvent}/images/${hiddenImage}?size=small`),
      get(`/websites/public/events/${event}/images/${hiddenImage}?size=small`),
      get(`/websites/public/events/${event}/images/${eventImage}?size=small`, B),
      get(`/websites/public/events/${event}/images/nope?size=small`),
      get(`/websites/public/${f.unpublishedWebsite}/images/${hiddenSiteImage}?size=small`),
      get(`/websites/public/${f.website}/images/${hiddenSiteImage}?size=small`),
      get(`/websites/public/${f.website}/images/${siteImage}?size=small`, B),
    ]);
    for (const a of hidden) {
      expect(a.status).toBe(404);
      expect(a.body.message).toBe(hidden[0].body.message);
    }
    expect(
      (await get(`/websites/public/events/${event}/images/${eventImage}?size=huge`)).status,
    ).toBe(400);
    expect((await get(`/websites/public/events/${event}/images/${eventImage}`)).status).toBe(400);
  });
});
