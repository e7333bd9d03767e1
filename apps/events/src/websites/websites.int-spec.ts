import pg from 'pg';
import { EventsKit } from '../test/events-kit';
import { inspect } from '../test/scopes';
import { WebsitesRepository } from './websites.repository';

// W1-W7, W11-W13 against the real service, PostgreSQL and NATS: the url key unique across all
// tenants (also under 20 concurrent creates), migrate in one transaction with its outbox event,
// publication rules, and another tenant's ids answered 404 with nothing changed.

jest.setTimeout(60000);

let kit: EventsKit;
let A: string;
let B: string;

const PUBLISHABLE = {
  name: 'Events portal',
  language: 'de',
  config: {
    primaryColor: '#0A5CFF',
    imprintUrl: 'https://example.com/imprint',
    privacyUrl: 'https://example.com/privacy',
    texts: [{ language: 'de', title: 'Veranstaltungen', intro: 'Willkommen' }],
  },
};
let n = 0;
const uniqueUrl = () => `https://portal-${Date.now()}-${n++}.example.com/`;
const create = (body: Record<string, unknown>, tenant = A) =>
  kit.call('POST', '/websites', body, tenant);

beforeAll(async () => {
  kit = await EventsKit.start('events_it_websites');
  ({ A, B } = kit);
}, 90000);
afterAll(async () => {
  await kit?.close();
});

describe('W3 POST /websites', () => {
  it('creates an unpublished website with its normalised url key and audit stamps', async () => {
    const res = await create({
      ...PUBLISHABLE,
      url: 'HTTPS://WWW.Create-Test.example.com:443/Events/',
      description: ' x ',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'Events portal',
      url: 'HTTPS://WWW.Create-Test.example.com:443/Events/',
      urlKey: 'create-test.example.com/Events',
      description: 'x',
      language: 'de',
      config: {
        primaryColor: '#0a5cff',
        secondaryColor: null,
        logoImageId: null,
        imprintUrl: 'https://example.com/imprint',
        privacyUrl: 'https://example.com/privacy',
        termsUrl: null,
        contactEmail: null,
        texts: [{ language: 'de', title: 'Veranstaltungen', intro: 'Willkommen' }],
      },
      invitationLinkTemplate: null,
      invitationLink: 'HTTPS://WWW.Create-Test.example.com:443/Events/invitations/{token}',
      published: false,
      publishedAt: null,
      createdBy: 'test-suite',
      modifiedBy: 'test-suite',
      createdByUserId: null,
      modifiedByUserId: null,
      dateCreated: expect.stringMatching(/Z$/),
      dateModified: expect.stringMatching(/Z$/),
    });
  });

  it('400 names field and rule', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: uniqueUrl() }, 'name', 'isDefined'],
      [{ name: 'x' }, 'url', 'isDefined'],
      [{ name: ' ', url: uniqueUrl() }, 'name', 'isNotEmpty'],
      [{ name: 'x', url: 'ftp://example.com' }, 'url', 'isUrl'],
      [{ name: 'x', url: 'example.com' }, 'url', 'isUrl'],
      [{ name: 'x', url: `https://${'a'.repeat(500)}.com` }, 'url', 'maxLength'],
      [{ name: 'x', url: 'https://example.com/?a=1' }, 'url', 'urlQuery'],
      [{ name: 'x', url: uniqueUrl(), language: 'xx' }, 'language', 'isLanguage'],
      [{ name: 'x', url: uniqueUrl(), language: 'DE' }, 'language', 'isLanguage'],
      [
        { name: 'x', url: uniqueUrl(), config: { primaryColor: 'red' } },
        'config.primaryColor',
        'matches',
      ],
      [
        { name: 'x', url: uniqueUrl(), config: { imprintUrl: 'javascript:alert(1)' } },
        'config.imprintUrl',
        'isUrl',
      ],
      [{ name: 'x', url: uniqueUrl(), config: { free: 1 } }, 'config.free', 'whitelistValidation'],
      [{ name: 'x', url: uniqueUrl(), config: 'x' }, 'config', 'nestedValidation'],
      [
        { name: 'x', url: uniqueUrl(), config: { texts: [{ language: 'en' }] } },
        'config.texts[0].title',
        'isDefined',
      ],
      [{ name: 'x', url: uniqueUrl(), published: true }, 'published', 'whitelistValidation'],
      [
        {
          name: 'x',
          url: uniqueUrl(),
          config: {
            texts: [
              { language: 'en', title: 'a' },
              { language: 'en', title: 'b' },
            ],
          },
        },
        'config.texts[1].language',
        'uniqueLanguage',
      ],
    ];
    for (const [body, field, rule] of cases) {
      const res = await create(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ field, rule })]),
      );
    }
    expect(await inspect(() => kit.db.website.count({ where: { tenantId: A, name: 'x' } }))).toBe(
      0,
    );
  });

  it("409 for a url written differently, the same answer for another tenant's url", async () => {
    const url = uniqueUrl();
    expect((await create({ name: 'a', url })).status).toBe(201);
    const same = await create({
      name: 'b',
      url: url.replace('https://', 'http://www.').toUpperCase().replace(/\/$/, ''),
    });
    expect(same.status).toBe(409);
    const other = await create({ name: 'b', url }, B);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(same.body.message);
    expect(other.body.errors).toEqual(same.body.errors);
    expect(JSON.stringify(other.body)).not.toContain(A);
    const de = await kit.call('POST', '/websites', { name: 'b', url }, B, {
      'Accept-Language': 'de',
    });
    expect(de.body.message).toBe('Diese URL wird bereits von einer Website verwendet');
  });

  it('20 concurrent creates of one url: exactly one 201', async () => {
    const url = uniqueUrl();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create({ name: `c${i}`, url }, i % 2 ? A : B)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await inspect(() => kit.db.website.count({ where: { url } }))).toBe(1);
  });
});

describe('W1 GET /websites', () => {
  it("pages, sorts, searches, filters by published; only the tenant's", async () => {
    const t = `tenant-list-${Date.now()}`;
    for (const [name, published] of [
      ['Beta', false],
      ['Alpha', true],
      ['Gamma', true],
    ] as const) {
      await kit.website({ name, published }, t);
    }
    await kit.website({ name: 'Other' }, B);
    const all = await kit.call('GET', '/websites?sort=name', undefined, t);
    expect(all.status).toBe(200);
    expect(all.body.data.map((w: { name: string }) => w.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(all.body.metaData.totalResults).toBe(3);
    const page = await kit.call('GET', '/websites?sort=-name&pageSize=1&page=2', undefined, t);
    expect(page.body.data.map((w: { name: string }) => w.name)).toEqual(['Beta']);
    expect(page.body.metaData.totalResults).toBe(3);
    const pub = await kit.call('GET', '/websites?published=true&sort=-dateCreated', undefined, t);
    expect(pub.body.data.map((w: { name: string }) => w.name)).toEqual(['Gamma', 'Alpha']);
    const q = await kit.call('GET', '/websites?q=amm', undefined, t);
    expect(q.body.data.map((w: { name: string }) => w.name)).toEqual(['Gamma']);
    for (const [query, field] of [
      ['sort=color', 'sort'],
      ['published=yes', 'published'],
      ['pageSize=501', 'pageSize'],
    ]) {
      const bad = await kit.call('GET', `/websites?${query}`, undefined, t);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe(field);
    }
  });
});

describe('W2, W4, W5', () => {
  it('reads, updates, deletes; another tenant gets 404 with nothing changed', async () => {
    const id = (await create({ ...PUBLISHABLE, url: uniqueUrl() })).body.data.id;
    expect((await kit.call('GET', `/websites/${id}`)).body.data.id).toBe(id);
    for (const [method, path, body] of [
      ['GET', `/websites/${id}`, undefined],
      ['PUT', `/websites/${id}`, { name: 'stolen' }],
      ['DELETE', `/websites/${id}`, undefined],
      ['PUT', `/websites/${id}/publication`, { published: true }],
      ['POST', `/websites/${id}/publication/validate`, undefined],
    ] as const) {
      const res = await kit.call(method, path, body, B);
      expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
    }
    expect((await kit.call('GET', '/websites/not-a-uuid')).status).toBe(404);
    const row = await inspect(() => kit.db.website.findUniqueOrThrow({ where: { id } }));
    expect(row).toMatchObject({ name: 'Events portal', published: false });

    const url = uniqueUrl();
    const upd = await kit.call('PUT', `/websites/${id}`, {
      name: 'Renamed',
      url,
      description: null,
      config: null,
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      name: 'Renamed',
      url,
      description: null,
      language: 'de',
    });
    expect(upd.body.data.config.texts).toEqual([]);
    const taken = await create({ name: 'x2', url: uniqueUrl() });
    const clash = await kit.call('PUT', `/websites/${taken.body.data.id}`, { url });
    expect(clash.status).toBe(409);
    // its own url again is no clash
    expect((await kit.call('PUT', `/websites/${id}`, { url: url.toUpperCase() })).status).toBe(200);

    const event = await kit.event({ websiteIds: [id] });
    const del = await kit.call('DELETE', `/websites/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deletedIds: [id] });
    expect(await inspect(() => kit.db.website.count({ where: { id } }))).toBe(0);
    expect(await inspect(() => kit.db.eventWebsite.count({ where: { eventId: event } }))).toBe(0);
    expect(await inspect(() => kit.db.event.count({ where: { id: event } }))).toBe(1);
    expect((await kit.call('DELETE', `/websites/${id}`)).status).toBe(404);
  });
});

describe('W6 DELETE /websites/batch', () => {
  it('all or nothing, every bad id named by index', async () => {
    const a = await kit.website();
    const b = await kit.website();
    const foreign = await kit.website({}, B);
    const bad = await kit.call('DELETE', '/websites/batch', { ids: [a, 'nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'ids[1]', rule: 'isUuid' })]);
    const missing = await kit.call('DELETE', '/websites/batch', { ids: [a, foreign, b] });
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([
      expect.objectContaining({ field: 'ids[1]', rule: 'unknownWebsite' }),
    ]);
    expect(
      await inspect(() => kit.db.website.count({ where: { id: { in: [a, b, foreign] } } })),
    ).toBe(3);
    expect((await kit.call('DELETE', '/websites/batch', {})).status).toBe(400);
    const ok = await kit.call('DELETE', '/websites/batch', { ids: [a, b, a.toUpperCase()] });
    expect(ok.status).toBe(200);
    expect(ok.body.data.deletedIds.sort()).toEqual([a, b].sort());
    expect(
      await inspect(() => kit.db.website.count({ where: { id: { in: [a, b, foreign] } } })),
    ).toBe(1);
  });
});

describe('W7 POST /websites/validate', () => {
  it('answers every problem without writing', async () => {
    const url = uniqueUrl();
    const ok = await kit.call('POST', '/websites/validate', { name: 'v', url });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ valid: true, errors: [] });
    await kit.website({ url }, B);
    const res = await kit.call('POST', '/websites/validate', {
      url,
      language: 'zz',
      config: { privacyUrl: 'x' },
    });
    expect(res.body.data.valid).toBe(false);
    expect(
      res.body.data.errors
        .map((e: { field: string; rule: string }) => `${e.field}/${e.rule}`)
        .sort(),
    ).toEqual(
      ['config.privacyUrl/isUrl', 'language/isLanguage', 'name/isDefined', 'url/unique'].sort(),
    );
    expect(await inspect(() => kit.db.website.count({ where: { tenantId: A, name: 'v' } }))).toBe(
      0,
    );
  });
});

describe('W11 POST /websites/{id}/migrate', () => {
  it('moves every event in one transaction, keeps one row per event, writes the outbox event', async () => {
    const source = await kit.website({ published: true });
    const target = await kit.website();
    const e1 = await kit.event({ websiteIds: [source] });
    const e2 = await kit.event({ websiteIds: [source, target] });
    const e3 = await kit.event({ websiteIds: [target] });
    const res = await kit.call('POST', `/websites/${source}/migrate`, { targetWebsiteId: target });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      websiteId: source,
      targetWebsiteId: target,
      movedEvents: 2,
      alreadyOnTarget: 1,
    });
    const rows = await inspect(() =>
      kit.db.eventWebsite.findMany({ where: { eventId: { in: [e1, e2, e3] } } }),
    );
    expect(rows.map((r) => `${r.eventId}:${r.websiteId}`).sort()).toEqual(
      [e1, e2, e3].map((e) => `${e}:${target}`).sort(),
    );
    expect(
      await inspect(() => kit.db.website.findUniqueOrThrow({ where: { id: source } })),
    ).toMatchObject({
      published: false,
    });
    const outbox = await inspect(() =>
      kit.db.outboxEvent.findMany({
        where: { subject: 'events.websites.migrated', tenantId: A },
      }),
    );
    const mine = outbox.find((o) => (o.payload as { websiteId: string }).websiteId === source);
    expect(mine?.payload).toEqual({
      tenantId: A,
      websiteId: source,
      targetWebsiteId: target,
      eventIds: [e1, e2].sort(),
    });
    // the moved events are announced again: their snapshots name the target and its link
    const changed = await inspect(() =>
      kit.db.outboxEvent.findMany({
        where: { subject: 'events.events.changed', tenantId: A },
      }),
    );
    const snapshotOf = (e: string) =>
      changed.find((o) => (o.payload as { eventId: string }).eventId === e)?.payload;
    for (const e of [e1, e2]) {
      expect(snapshotOf(e)).toMatchObject({
        websiteIds: [target],
        websites: [
          {
            id: target,
            invitationLink: expect.stringMatching(/\.example\.com\/invitations\/\{token\}$/),
          },
        ],
      });
    }
    expect(snapshotOf(e3)).toBeUndefined();
  });

  it("400 for the same website, 404 for another tenant's (nothing changed)", async () => {
    const source = await kit.website({ published: true });
    const e1 = await kit.event({ websiteIds: [source] });
    const same = await kit.call('POST', `/websites/${source}/migrate`, {
      targetWebsiteId: source.toUpperCase(),
    });
    expect(same.status).toBe(400);
    expect(same.body.errors[0]).toMatchObject({ field: 'targetWebsiteId', rule: 'sameWebsite' });
    const foreign = await kit.website({}, B);
    expect(
      (await kit.call('POST', `/websites/${source}/migrate`, { targetWebsiteId: foreign })).status,
    ).toBe(404);
    expect(
      (await kit.call('POST', `/websites/${foreign}/migrate`, { targetWebsiteId: source }, A))
        .status,
    ).toBe(404);
    expect(
      (await kit.call('POST', `/websites/${source}/migrate`, { targetWebsiteId: 'x' })).status,
    ).toBe(400);
    expect(await inspect(() => kit.db.eventWebsite.findMany({ where: { eventId: e1 } }))).toEqual([
      expect.objectContaining({ websiteId: source }),
    ]);
    expect(
      await inspect(() => kit.db.website.findUniqueOrThrow({ where: { id: source } })),
    ).toMatchObject({
      published: true,
    });
  });
});

describe('W12, W13 publication', () => {
  it('lists every missing piece; publishing an invalid website is a 409 with the same list', async () => {
    const id = (
      await create({
        name: 'Bare',
        url: uniqueUrl(),
        config: { logoImageId: '6f1c0d52-3a55-4a2e-9d7e-0f3b8a9b1c2d' },
      })
    ).body.data.id;
    const check = await kit.call('POST', `/websites/${id}/publication/validate`);
    expect(check.status).toBe(200);
    expect(check.body.data.valid).toBe(false);
    const fields = check.body.data.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual([
      'language',
      'config.imprintUrl',
      'config.privacyUrl',
      'config.logoImageId',
    ]);
    const publish = await kit.call('PUT', `/websites/${id}/publication`, { published: true });
    expect(publish.status).toBe(409);
    expect(publish.body.errors).toEqual(check.body.data.errors);
    expect(
      (await inspect(() => kit.db.website.findUniqueOrThrow({ where: { id } }))).published,
    ).toBe(false);

    const noText = await kit.call('PUT', `/websites/${id}`, {
      ...PUBLISHABLE,
      config: { ...PUBLISHABLE.config, texts: [] },
    });
    expect(noText.status).toBe(200);
    const v2 = await kit.call('POST', `/websites/${id}/publication/validate`);
    expect(v2.body.data.errors).toEqual([
      expect.objectContaining({ field: 'config.texts', rule: 'textInLanguage' }),
    ]);
  });

  it('publishes a complete website, keeps it publishable on update, unpublishes', async () => {
    const id = (await create({ ...PUBLISHABLE, url: uniqueUrl() })).body.data.id;
    expect((await kit.call('POST', `/websites/${id}/publication/validate`)).body.data).toEqual({
      valid: true,
      errors: [],
    });
    const on = await kit.call('PUT', `/websites/${id}/publication`, { published: true });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({
      published: true,
      publishedAt: expect.stringMatching(/Z$/),
    });
    const breaking = await kit.call('PUT', `/websites/${id}`, {
      config: { imprintUrl: 'https://example.com/i' },
    });
    expect(breaking.status).toBe(409);
    expect(breaking.body.errors).toEqual([
      expect.objectContaining({ field: 'config.privacyUrl', rule: 'requiredToPublish' }),
      expect.objectContaining({ field: 'config.texts', rule: 'textInLanguage' }),
    ]);
    expect(
      (await inspect(() => kit.db.website.findUniqueOrThrow({ where: { id } }))).config,
    ).toMatchObject({
      privacyUrl: 'https://example.com/privacy',
    });
    const off = await kit.call('PUT', `/websites/${id}/publication`, { published: false });
    expect(off.body.data).toMatchObject({ published: false, publishedAt: null });
    expect((await kit.call('PUT', `/websites/${id}/publication`, {})).status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('creates, lists, reads, resolves references in one batch, validates', async () => {
    const url = uniqueUrl();
    const created = await kit.gql(
      `mutation($input: CreateWebsiteInput!) { createWebsite(input: $input) { id urlKey config { texts { language } } } }`,
      { input: { ...PUBLISHABLE, url } },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createWebsite.id;
    const read = await kit.gql(`query($id: ID!) { website(id: $id) { id name published } }`, {
      id,
    });
    expect(read.body.data.website).toEqual({ id, name: 'Events portal', published: false });
    const list = await kit.gql(
      `{ websites(q: "Events portal", pageSize: 500) { totalResults items { id } } }`,
    );
    expect(list.body.data.websites.items.map((w: { id: string }) => w.id)).toContain(id);
    const foreign = await kit.gql(`query($id: ID!) { website(id: $id) { id } }`, { id }, B);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const refs = await kit.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Website { id name } } }`,
      {
        r: [
          { __typename: 'Website', id },
          { __typename: 'Website', id: '6f1c0d52-3a55-4a2e-9d7e-0f3b8a9b1c2d' },
        ],
      },
    );
    expect(refs.body.data._entities).toEqual([{ id, name: 'Events portal' }, null]);
    const pub = await kit.gql(
      `mutation($id: ID!) { setWebsitePublication(id: $id, published: true) { published } }`,
      { id },
    );
    expect(pub.body.data.setWebsitePublication.published).toBe(true);
    const dup = await kit.gql(
      `mutation($input: CreateWebsiteInput!) { createWebsite(input: $input) { id } }`,
      {
        input: { name: 'd', url },
      },
    );
    expect(dup.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it('validateWebsite reports a missing name and url in errors', async () => {
    const res = await kit.gql(
      `mutation($input: UpdateWebsiteInput!) { validateWebsite(input: $input) { valid errors { field rule } } }`,
      { input: { language: 'en' } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.validateWebsite).toEqual({
      valid: false,
      errors: [
        { field: 'name', rule: 'isDefined' },
        { field: 'url', rule: 'isDefined' },
      ],
    });
  });
});

describe('no N+1', () => {
  /** Statements naming the Website table while `fn` runs (the outbox relay polls meanwhile). */
  async function websiteStatements(fn: () => Promise<void>): Promise<number> {
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    try {
      await fn();
      return spy.mock.calls.filter(([q]) =>
        /"Website"/.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
      ).length;
    } finally {
      spy.mockRestore();
    }
  }

  it('W1 reads a page of 100 in the same statements as a page of 1', async () => {
    const t = `tenant-nplus1-${Date.now()}`;
    for (let i = 0; i < 100; i++) await kit.website({ name: `N${i}` }, t);
    const one = await websiteStatements(async () => {
      expect((await kit.call('GET', '/websites?pageSize=1', undefined, t)).body.data).toHaveLength(
        1,
      );
    });
    const hundred = await websiteStatements(async () => {
      expect(
        (await kit.call('GET', '/websites?pageSize=100', undefined, t)).body.data,
      ).toHaveLength(100);
    });
    expect(hundred).toBe(one);
    expect(hundred).toBeLessThanOrEqual(2);
  });

  it('_entities loads every referenced website with one query', async () => {
    const ids = [
      await kit.website({ name: 'R1' }),
      await kit.website({ name: 'R2' }),
      await kit.website({}, B),
    ];
    const loads = jest.spyOn(kit.svc.app.get(WebsitesRepository), 'findMany');
    try {
      const res = await kit.gql(
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Website { name } } }`,
        { r: ids.map((id) => ({ __typename: 'Website', id })) },
      );
      expect(res.body.data._entities).toEqual([{ name: 'R1' }, { name: 'R2' }, null]);
      expect(loads).toHaveBeenCalledTimes(1);
    } finally {
      loads.mockRestore();
    }
  });
});

describe('invitation link template (W3, W4, W7)', () => {
  it('defaults to {websiteUrl}/invitations/{token}; a template needs {token} and must give an absolute http(s) url', async () => {
    const url = uniqueUrl();
    const plain = await create({ name: 'Portal', url });
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({
      invitationLinkTemplate: null,
      invitationLink: `${url.replace(/\/$/, '')}/invitations/{token}`,
    });

    const own = await create({
      name: 'Portal',
      url: uniqueUrl(),
      invitationLinkTemplate: ' https://tickets.example.org/i/{token} ',
    });
    expect(own.status).toBe(201);
    expect(own.body.data).toMatchObject({
      invitationLinkTemplate: 'https://tickets.example.org/i/{token}',
      invitationLink: 'https://tickets.example.org/i/{token}',
    });

    const noToken = await kit.call(
      'POST',
      '/websites',
      { name: 'Portal', url: uniqueUrl(), invitationLinkTemplate: '{websiteUrl}/invitations' },
      A,
      { 'Accept-Language': 'de' },
    );
    expect(noToken.status).toBe(400);
    expect(noToken.body.errors).toEqual([
      {
        field: 'invitationLinkTemplate',
        rule: 'invitationLinkToken',
        message:
          'invitationLinkTemplate muss {token} enthalten, dort steht das Token der Einladung',
      },
    ]);

    for (const bad of ['/invitations/{token}', 'ftp://x.example/{token}', 'javascript:{token}']) {
      const res = await create({ name: 'Portal', url: uniqueUrl(), invitationLinkTemplate: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        field: 'invitationLinkTemplate',
        rule: 'invitationLinkUrl',
      });
      expect(res.body.errors[0].message).toContain('http');
    }

    // W4 checks the template against the url it will have; W7 like W3
    const id = plain.body.data.id;
    const put = await kit.call('PUT', `/websites/${id}`, { invitationLinkTemplate: 'x{token}' });
    expect(put.status).toBe(400);
    expect(put.body.errors[0].rule).toBe('invitationLinkUrl');
    const validate = await kit.call('POST', '/websites/validate', {
      name: 'Portal',
      url: uniqueUrl(),
      invitationLinkTemplate: 'https://x.example/',
    });
    expect(validate.body.data).toMatchObject({
      valid: false,
      errors: [expect.objectContaining({ rule: 'invitationLinkToken' })],
    });
  });
});
