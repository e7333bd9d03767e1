import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client as Pg } from 'pg';
import sharp from 'sharp';
import { tenantHeaders } from '@crm/testing';
import { Client, EVENT_SERVICES, startClient, TestTenant } from './client';

// W1-W15 (websites, their images and the public W8-W10) through the gateway: one success and
// the main failure per row, another tenant's ids answering 404 with nothing changed, and the
// public answers checked for internal fields at any depth. Events are rows written straight into
// the events database (E3 is not what this file is about).

jest.setTimeout(90000);

let client: Client;
let a: TestTenant;
let b: TestTenant;
let pg: Pg;
let storageDir: string;
const SLUG = Date.now().toString(36);

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'crm-e2e-websites-'));
  process.env.FILE_STORAGE_DIR = storageDir;
  client = await startClient('websites', EVENT_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
  pg = new Pg({ connectionString: client.stack.processes.get('events')!.env.DATABASE_URL });
  await pg.connect();
}, 180000);
afterAll(async () => {
  await pg?.end();
  await client?.stack.shutdown();
  delete process.env.FILE_STORAGE_DIR;
  await rm(storageDir, { recursive: true, force: true });
}, 30000);

const PUBLISHABLE = {
  name: 'Portal',
  language: 'en',
  config: {
    imprintUrl: 'https://example.com/imprint',
    privacyUrl: 'https://example.com/privacy',
    texts: [{ language: 'en', title: 'Our events' }],
  },
};
let n = 0;
const url = () => `https://e2e-${SLUG}-${n++}.example.com/`;

async function website(t: TestTenant, body: Record<string, unknown> = {}): Promise<string> {
  const res = await client.rest(t, 'POST', '/websites', { ...PUBLISHABLE, url: url(), ...body });
  if (res.status !== 201) throw new Error(`create website: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function event(
  t: TestTenant,
  websiteIds: string[],
  published: boolean,
  extra: Record<string, unknown> = {},
) {
  const id = randomUUID();
  await pg.query(
    `INSERT INTO "Event" (id, "tenantId", title, "timeZone", published, note, "createdBy", "dateModified")
     VALUES ($1, $2, $3, 'Europe/Berlin', $4, $5, 'secret-integration', now())`,
    [id, t.id, (extra.title as string) ?? 'Open day', published, 'SECRET-NOTE'],
  );
  for (const w of websiteIds) {
    await pg.query(
      `INSERT INTO "EventWebsite" ("tenantId", "eventId", "websiteId") VALUES ($1, $2, $3)`,
      [t.id, id, w],
    );
  }
  return id;
}

const snapshot = async (id: string) =>
  (await pg.query(`SELECT * FROM "Website" WHERE id = $1`, [id])).rows;

describe('W1-W7', () => {
  it('W3 creates (201) and refuses a taken url for any tenant (409, same answer)', async () => {
    const u = url();
    const res = await client.rest(a, 'POST', '/websites', { ...PUBLISHABLE, url: u });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Portal',
      published: false,
      urlKey: u.slice(8, -1),
    });
    const mine = await client.rest(a, 'POST', '/websites', {
      name: 'x',
      url: u.replace('https://', 'http://www.'),
    });
    const theirs = await client.rest(b, 'POST', '/websites', { name: 'x', url: u });
    expect([mine.status, theirs.status]).toEqual([409, 409]);
    expect(theirs.body.message).toBe(mine.body.message);
    const bad = await client.rest(a, 'POST', '/websites', { name: 'x', url: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'url', rule: 'isUrl' });
  });

  it("W1 lists (paged, only the tenant's), W2 reads, W4 updates, W7 validates", async () => {
    const id = await website(a, { name: 'Listed portal' });
    const foreign = await website(b);
    const list = await client.rest(a, 'GET', '/websites?q=Listed&pageSize=10');
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await client.rest(a, 'GET', '/websites?sort=colour')).status).toBe(400);
    expect((await client.rest(a, 'GET', `/websites/${id}`)).body.data.id).toBe(id);
    expect((await client.rest(a, 'GET', `/websites/${foreign}`)).status).toBe(404);
    const upd = await client.rest(a, 'PUT', `/websites/${id}`, { description: 'Updated' });
    expect(upd.body.data.description).toBe('Updated');
    const before = await snapshot(foreign);
    expect((await client.rest(a, 'PUT', `/websites/${foreign}`, { name: 'stolen' })).status).toBe(
      404,
    );
    expect((await client.rest(a, 'PUT', `/websites/${id}`, { language: 'xx' })).status).toBe(400);
    expect(await snapshot(foreign)).toEqual(before);
    const v = await client.rest(a, 'POST', '/websites/validate', {
      name: 'v',
      url: 'https://example.com/?q',
    });
    expect(v.status).toBe(200);
    expect(v.body.data).toMatchObject({
      valid: false,
      errors: [expect.objectContaining({ field: 'url', rule: 'urlQuery' })],
    });
  });

  it("W5 deletes, W6 deletes several (all or nothing); another tenant's: 404, nothing deleted", async () => {
    const one = await website(a);
    const two = await website(a);
    const three = await website(a);
    const foreign = await website(b);
    expect((await client.rest(a, 'DELETE', `/websites/${foreign}`)).status).toBe(404);
    expect((await client.rest(a, 'DELETE', `/websites/${one}`)).body.data).toEqual({
      deletedIds: [one],
    });
    const mixed = await client.rest(a, 'DELETE', '/websites/batch', { ids: [two, foreign] });
    expect(mixed.status).toBe(404);
    expect(mixed.body.errors[0].field).toBe('ids[1]');
    const ok = await client.rest(a, 'DELETE', '/websites/batch', { ids: [two, three] });
    expect(ok.body.data.deletedIds.sort()).toEqual([two, three].sort());
    expect((await snapshot(foreign)).length).toBe(1);
  });
});

describe('W11-W13', () => {
  it('W11 migrates every event in one go (outbox), W12/W13 publication with its checks', async () => {
    const source = await website(a);
    const target = await website(a);
    const e1 = await event(a, [source], true);
    const e2 = await event(a, [source, target], true);
    const moved = await client.rest(a, 'POST', `/websites/${source}/migrate`, {
      targetWebsiteId: target,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toEqual({
      websiteId: source,
      targetWebsiteId: target,
      movedEvents: 2,
      alreadyOnTarget: 1,
    });
    const rows = await pg.query(
      `SELECT "eventId", "websiteId" FROM "EventWebsite" WHERE "eventId" = ANY($1::uuid[])`,
      [[e1, e2]],
    );
    expect(rows.rows.every((r) => r.websiteId === target)).toBe(true);
    expect(rows.rows).toHaveLength(2);
    const outbox = await pg.query(
      `SELECT payload FROM "OutboxEvent" WHERE subject = 'events.websites.migrated'`,
    );
    expect(outbox.rows.map((r) => r.payload.websiteId)).toContain(source);
    expect(
      (await client.rest(a, 'POST', `/websites/${source}/migrate`, { targetWebsiteId: source }))
        .status,
    ).toBe(400);
    const foreign = await website(b);
    expect(
      (await client.rest(a, 'POST', `/websites/${source}/migrate`, { targetWebsiteId: foreign }))
        .status,
    ).toBe(404);

    const bare = (await client.rest(a, 'POST', '/websites', { name: 'Bare', url: url() })).body.data
      .id;
    const check = await client.rest(a, 'POST', `/websites/${bare}/publication/validate`);
    expect(check.body.data.valid).toBe(false);
    const refused = await client.rest(a, 'PUT', `/websites/${bare}/publication`, {
      published: true,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual(check.body.data.errors);
    const ok = await client.rest(a, 'PUT', `/websites/${target}/publication`, { published: true });
    expect(ok.body.data.published).toBe(true);
    expect(
      (await client.rest(b, 'PUT', `/websites/${target}/publication`, { published: false })).status,
    ).toBe(404);
    expect((await client.rest(b, 'POST', `/websites/${target}/publication/validate`)).status).toBe(
      404,
    );
  });
});

describe('W14, W15 website images', () => {
  const uploadHeaders = (t: TestTenant) => {
    const { 'Content-Type': _json, ...rest } = tenantHeaders(t.id);
    return { ...rest, Authorization: `Bearer ${t.key}` };
  };
  const upload = async (t: TestTenant, id: string, data: Buffer, type = 'image/png') => {
    const form = new FormData();
    form.append('file', new Blob([data], { type }), 'image.png');
    return client.raw(`/v1/crm/websites/${id}/images`, {
      method: 'POST',
      headers: uploadHeaders(t),
      body: form,
    });
  };

  it('uploads, lists, reads a size, deletes; another tenant 404', async () => {
    const id = await website(a);
    const img = await sharp({
      create: { width: 600, height: 300, channels: 3, background: 'teal' },
    })
      .png()
      .toBuffer();
    const up = await upload(a, id, img);
    expect(up.status).toBe(201);
    const imageId = up.body.data.id;
    expect((await upload(b, id, img)).status).toBe(404);
    expect((await upload(a, id, Buffer.from('not an image'), 'text/plain')).status).toBe(415);
    const list = await client.rest(a, 'GET', `/websites/${id}/images`);
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([imageId]);
    const bytes = await client.raw(`/v1/crm/websites/${id}/images/${imageId}?size=small`, {
      headers: uploadHeaders(a),
    });
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/webp');
    expect((await client.rest(a, 'GET', `/websites/${id}/images/${imageId}`)).body.data.id).toBe(
      imageId,
    );
    expect((await client.rest(b, 'GET', `/websites/${id}/images/${imageId}`)).status).toBe(404);
    expect((await client.rest(b, 'DELETE', `/websites/${id}/images/${imageId}`)).status).toBe(404);
    expect((await client.rest(a, 'DELETE', `/websites/${id}/images/${imageId}`)).body.data).toEqual(
      { id: imageId, deleted: true },
    );
    expect((await client.rest(a, 'GET', `/websites/${id}/images/${imageId}`)).status).toBe(404);
  });
});

describe('W8-W10 public, without an API key', () => {
  const FORBIDDEN = [
    'note',
    'createdBy',
    'modifiedBy',
    'createdByUserId',
    'modifiedByUserId',
    'tenantId',
    'orgaTags',
    'urlKey',
  ];
  const keysOf = (v: unknown, out = new Set<string>()): Set<string> => {
    if (Array.isArray(v)) v.forEach((x) => keysOf(x, out));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.add(k);
        keysOf(x, out);
      }
    }
    return out;
  };
  const publicGet = (t: TestTenant, p: string, extra: Record<string, string> = {}) => {
    const { 'Content-Type': _json, ...h } = tenantHeaders(t.id);
    return client.raw(`/v1/crm${p}`, { headers: { ...h, ...extra } });
  };

  it('answers a published event, its booking form, the portal config; hides everything else', async () => {
    const site = await website(a);
    expect(
      (await client.rest(a, 'PUT', `/websites/${site}/publication`, { published: true })).status,
    ).toBe(200);
    const hiddenSite = await website(a);
    const published = await event(a, [site, hiddenSite], true);
    const draft = await event(a, [site], false);
    const siteB = await website(b);
    await client.rest(b, 'PUT', `/websites/${siteB}/publication`, { published: true });
    const eventB = await event(b, [siteB], true);

    const ok = await publicGet(a, `/websites/public/events/${published}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ id: published, title: 'Open day' });
    expect(ok.body.data.websites.map((w: { id: string }) => w.id)).toEqual([site]);
    const form = await publicGet(a, `/websites/public/events/${published}/booking-form`);
    expect(form.body.data).toEqual({ eventId: published, fields: [] });
    const siteUrl = (await client.rest(a, 'GET', `/websites/${site}`)).body.data.url;
    const config = await publicGet(a, `/websites/public/config?url=${encodeURIComponent(siteUrl)}`);
    expect(config.body.data.id).toBe(site);
    for (const res of [ok, form, config]) {
      const keys = keysOf(res.body);
      expect(FORBIDDEN.filter((k) => keys.has(k))).toEqual([]);
      const text = JSON.stringify(res.body);
      for (const secret of ['SECRET-NOTE', 'secret-integration', hiddenSite, a.id, b.id])
        expect(text).not.toContain(secret);
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      expect(res.headers.get('etag')).toMatch(/^W\//);
    }
    const etag = ok.headers.get('etag')!;
    expect(
      (await publicGet(a, `/websites/public/events/${published}`, { 'If-None-Match': etag }))
        .status,
    ).toBe(304);

    const hidden = await Promise.all([
      publicGet(a, `/websites/public/events/${draft}`),
      publicGet(a, `/websites/public/events/${eventB}`),
      publicGet(b, `/websites/public/events/${published}`),
      publicGet(a, `/websites/public/events/${draft}/booking-form`),
      publicGet(
        a,
        `/websites/public/config?url=${encodeURIComponent((await client.rest(a, 'GET', `/websites/${hiddenSite}`)).body.data.url)}`,
      ),
    ]);
    for (const res of hidden) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(hidden[0].body.message);
    }
    // (ours) the event's gallery, listed by W8 with public addresses that need no key either
    const form2 = new FormData();
    const img = await sharp({
      create: { width: 200, height: 100, channels: 3, background: 'navy' },
    })
      .png()
      .toBuffer();
    form2.append('file', new Blob([img], { type: 'image/png' }), 'p.png');
    const { 'Content-Type': _ct, ...keyed } = tenantHeaders(a.id);
    const up = await client.raw(`/v1/crm/events/${published}/images`, {
      method: 'POST',
      headers: { ...keyed, Authorization: `Bearer ${a.key}` },
      body: form2,
    });
    expect(up.status).toBe(201);
    const withImage = await publicGet(a, `/websites/public/events/${published}`);
    const imageUrl: string = withImage.body.data.images[0].sizes[0].url;
    const res = await publicGet(a, imageUrl.replace('/v1/crm', ''));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toMatch(/^public/);
    expect((await publicGet(b, imageUrl.replace('/v1/crm', ''))).status).toBe(404);
    // the tenant header is still required
    expect((await client.raw(`/v1/crm/websites/public/events/${published}`)).status).toBe(400);
    // and the rest of /websites still needs a key
    const { 'Content-Type': _json, ...noKey } = tenantHeaders(a.id);
    expect((await client.raw(`/v1/crm/websites/${site}`, { headers: noKey })).status).toBe(401);
  });

  it('W8-W10 over GraphQL: the REST answers, the same NOT_FOUND (translated) for whatever is hidden', async () => {
    const site = await website(a);
    await client.rest(a, 'PUT', `/websites/${site}/publication`, { published: true });
    const hiddenSite = await website(a);
    const published = await event(a, [site, hiddenSite], true);
    const draft = await event(a, [site], false);
    const siteUrl = (await client.rest(a, 'GET', `/websites/${site}`)).body.data.url;
    const EVENT = `query($id: ID!) { publicEvent(eventId: $id) { id title subtitle description startsAt endsAt timeZone capacity status publishedAt venue { name city } onlineMeeting { platformId } category { id text } contributors { name } contactPerson { email } portalTags { id text color } websites { id name url } images { id sizes { size width height url } } } }`;
    const FORM = `query($id: ID!) { publicEventBookingForm(eventId: $id) { eventId fields { key label type required options } } }`;
    const CONFIG = `query($url: String!) { publicWebsiteConfig(url: $url) { id name url description language config { primaryColor imprintUrl texts { language title intro } } images { id } } }`;

    const graph = await client.graphql(a, `${EVENT}`, { id: published });
    expect(graph.body.errors).toBeUndefined();
    const rest = (await publicGet(a, `/websites/public/events/${published}`)).body.data;
    expect(graph.body.data.publicEvent).toEqual({
      ...rest,
      venue: rest.venue && { name: rest.venue.name, city: rest.venue.city },
      contributors: rest.contributors.map((c: { name: string }) => ({ name: c.name })),
      contactPerson: rest.contactPerson && { email: rest.contactPerson.email },
    });
    expect(graph.body.data.publicEvent.websites.map((w: { id: string }) => w.id)).toEqual([site]);
    const form = await client.graphql(a, FORM, { id: published });
    expect(form.body.data.publicEventBookingForm).toEqual({ eventId: published, fields: [] });
    const config = await client.graphql(a, CONFIG, { url: siteUrl });
    expect(config.body.data.publicWebsiteConfig).toMatchObject({
      id: site,
      url: siteUrl,
      config: { imprintUrl: 'https://example.com/imprint' },
    });

    const hidden = await Promise.all([
      client.graphql(a, EVENT, { id: draft }),
      client.graphql(b, EVENT, { id: published }),
      client.graphql(a, EVENT, { id: 'not-a-uuid' }),
      client.graphql(a, FORM, { id: draft }),
      client.graphql(a, CONFIG, {
        url: (await client.rest(a, 'GET', `/websites/${hiddenSite}`)).body.data.url,
      }),
      client.graphql(b, CONFIG, { url: siteUrl }),
    ]);
    const restMessage = (await publicGet(a, `/websites/public/events/${draft}`)).body.message;
    for (const res of hidden) {
      expect(res.body.data).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
      expect(res.body.errors[0].message).toBe(restMessage);
    }
    const german = await client.graphql(a, EVENT, { id: draft }, { 'Accept-Language': 'de' });
    expect(german.body.errors[0].message).toBe(
      (await publicGet(a, `/websites/public/events/${draft}`, { 'Accept-Language': 'de' })).body
        .message,
    );
    expect(german.body.errors[0].message).not.toBe(restMessage);
    // W10's url is checked as over REST
    const empty = await client.graphql(a, CONFIG, { url: '' });
    expect(empty.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    expect(empty.body.errors[0].extensions.errors).toEqual(
      (await publicGet(a, `/websites/public/config?url=`)).body.errors,
    );
  });
});
