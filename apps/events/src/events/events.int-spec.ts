import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { EventTestKit, errorsOf, inDays } from './test/event-test-kit';

// E2-E7, E9, E10 over REST and GraphQL on a real database and NATS: outbox rows in the write's
// transaction, another tenant's ids answer 404 with nothing changed.

let t: EventTestKit;
let conductor: string;

beforeAll(async () => {
  t = await EventTestKit.start('events_it_events');
  conductor = await t.entry('CONTRIBUTOR_ROLES', 'Conductor');
}, 60000);
afterAll(async () => {
  await t?.close();
});

const full = () => ({
  title: '  Winter concert  ',
  subtitle: 'Strings and choir',
  description: 'An evening of music',
  startsAt: inDays(30, 18),
  endsAt: inDays(30, 21),
  timeZone: 'Europe/Berlin',
  venue: {
    name: 'Kongresshalle',
    street: 'Hauptstr. 1',
    zip: '10115',
    city: 'Berlin',
    country: 'de',
  },
  onlineMeeting: { platformId: 'zoom', url: 'https://meet.example.com/abc' },
  capacity: 120,
  contributors: [{ name: 'Anna Dirigent', roleId: conductor }],
  contactPerson: {
    salutation: 'Mr',
    firstname: 'Max',
    lastname: 'Muster',
    email: 'max@example.com',
  },
  taxRateId: 'de-standard',
  status: 'scheduled',
});

describe('E3 POST /events', () => {
  it('creates an event with every field, sequence 0, unpublished, and writes events.events.changed', async () => {
    const res = await t.call('POST', '/events', full());
    expect(res.status).toBe(201);
    const e = res.body.data;
    expect(e).toMatchObject({
      title: 'Winter concert',
      subtitle: 'Strings and choir',
      timeZone: 'Europe/Berlin',
      venue: { name: 'Kongresshalle', city: 'Berlin', country: 'DE' },
      onlineMeeting: { platformId: 'zoom', url: 'https://meet.example.com/abc' },
      capacity: 120,
      contactPerson: { templateId: null, firstname: 'Max', email: 'max@example.com', phone: null },
      status: 'scheduled',
      published: false,
      websiteIds: [],
      sequence: 0,
      note: null,
      createdBy: 'test-suite',
    });
    expect(e.startsAt).toMatch(/Z$/);
    const outbox = await t.outbox(e.id);
    expect(outbox).toEqual([
      {
        subject: 'events.events.changed',
        payload: expect.objectContaining({
          eventId: e.id,
          tenantId: t.A,
          sequence: 0,
          title: 'Winter concert',
        }),
      },
    ]);
  });

  it('copies the fields left out from a contact person template of the tenant', async () => {
    const tpl = await t.template(t.A, { firstname: 'Erika', email: 'erika@example.com' });
    const e = await t.event({ title: 'T', contactPerson: { templateId: tpl, phone: null } });
    expect(e.contactPerson).toEqual({
      templateId: tpl,
      salutation: 'Ms',
      firstname: 'Erika',
      lastname: 'Mustermann',
      position: 'Organiser',
      email: 'erika@example.com',
      phone: null,
    });
    const foreign = await t.template(t.B);
    const res = await t.call('POST', '/events', {
      title: 'T',
      contactPerson: { templateId: foreign },
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual([['contactPerson.templateId', 'unknownTemplate']]);
  });

  it('checks every reference with the event settings and finds or creates tags by text', async () => {
    const category = await t.entry('EVENT_CATEGORIES', 'Concerts');
    const theirs = await t.entry('EVENT_CATEGORIES', 'Theirs', t.B);
    const vip = await t.entry('ORGA_TAGS', 'VIP');
    const before = await t.count('Event');
    const bad = await t.call('POST', '/events', {
      title: 'Refs',
      categoryId: theirs,
      contributors: [{ name: 'X', roleId: randomUUID() }],
      bookingFormFieldSetId: randomUUID(),
      cancellationConditionId: randomUUID(),
      orgaTags: [{ id: randomUUID() }],
      taxRateId: 'xx-nothing',
      onlineMeeting: { platformId: 'carrier-pigeon', url: 'https://example.com/m' },
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body).sort()).toEqual(
      [
        ['categoryId', 'unknownEntry'],
        ['contributors[0].roleId', 'unknownEntry'],
        ['bookingFormFieldSetId', 'unknownEntry'],
        ['cancellationConditionId', 'unknownEntry'],
        ['orgaTags[0].id', 'unknownEntry'],
        ['taxRateId', 'unknownTaxRate'],
        ['onlineMeeting.platformId', 'unknownMeetingPlatform'],
      ].sort(),
    );
    expect(await t.count('Event')).toBe(before);
    const ok = await t.event({
      title: 'Refs',
      categoryId: category,
      orgaTags: [{ id: vip }, { text: 'vip' }, { text: 'Press' }],
      portalTags: [{ text: 'Family' }],
    });
    expect(ok.categoryId).toBe(category);
    expect(ok.orgaTags.map((x: { text: string }) => x.text)).toEqual(['Press', 'VIP']);
    expect(ok.portalTags).toEqual([{ id: expect.any(String), text: 'Family', color: null }]);
    expect(await t.count('EventSettingsEntry', `"tenantId" = $1 AND text = 'Press'`, [t.A])).toBe(
      1,
    );
  });

  it('takes the time zone and the defaults of the event settings for fields left out', async () => {
    const category = await t.entry('EVENT_CATEGORIES', 'Default category');
    const tpl = await t.template(t.A, { lastname: 'Default' });
    await t.sql(
      `INSERT INTO "EventSettings" ("tenantId", "timeZone", currency, "eventDefaults", "dateModified")
       VALUES ($1, 'America/New_York', 'USD', $2::jsonb, now())`,
      [
        t.B,
        JSON.stringify({
          capacity: 50,
          categoryId: null,
          taxRateId: 'de-standard',
          contactPersonTemplateId: null,
        }),
      ],
    );
    const theirs = await t.event({ title: 'Defaults' }, t.B);
    expect(theirs).toMatchObject({
      timeZone: 'America/New_York',
      capacity: 50,
      taxRateId: 'de-standard',
    });
    const explicit = await t.event(
      { title: 'Given', capacity: null, timeZone: 'Europe/Vienna' },
      t.B,
    );
    expect(explicit).toMatchObject({
      timeZone: 'Europe/Vienna',
      capacity: null,
      taxRateId: 'de-standard',
    });
    // tenant A has no settings row: the engine's default zone, no defaults
    const mine = await t.event({
      title: 'Plain',
      categoryId: category,
      contactPerson: { templateId: tpl },
    });
    expect(mine).toMatchObject({
      timeZone: 'Europe/Berlin',
      capacity: null,
      contactPerson: { lastname: 'Default' },
    });
  });

  it('refuses bad input with 400 naming each field, and writes nothing', async () => {
    const before = await t.count('Event');
    const res = await t.call('POST', '/events', {
      title: '',
      startsAt: '2026-12-01T18:00:00+01:00',
      endsAt: 'tomorrow',
      timeZone: 'Mars/Olympus',
      capacity: 0,
      venue: { country: 'Germany' },
      onlineMeeting: { platformId: 'zoom', url: 'http://insecure.example.com' },
      contributors: [{ name: 'x' }],
      status: 'open',
      note: 'not here',
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual(
      expect.arrayContaining([
        ['title', 'isNotEmpty'],
        ['startsAt', 'matches'],
        ['endsAt', 'isIso8601'],
        ['timeZone', 'isTimeZone'],
        ['capacity', 'min'],
        ['venue.country', 'isISO31661Alpha2'],
        ['onlineMeeting.url', 'isUrl'],
        ['contributors[0].roleId', 'isDefined'],
        ['status', 'isIn'],
        ['note', 'whitelistValidation'],
      ]),
    );
    const order = await t.call('POST', '/events', {
      title: 'x',
      startsAt: inDays(2, 12),
      endsAt: inDays(2, 10),
    });
    expect(errorsOf(order.body)).toEqual([['endsAt', 'endsAfterStart']]);
    for (const body of [
      null,
      [],
      'x',
      { title: 5 },
      { title: 'x', venue: [] },
      { title: 'x'.repeat(201) },
    ]) {
      expect((await t.call('POST', '/events', body)).status).toBe(400);
    }
    expect(await t.count('Event')).toBe(before);
  });

  it('answers hostile input with 400, never 500', async () => {
    const post = async (b: unknown) => (await t.call('POST', '/events', b)).status;
    expect(await post({ title: 'x', capacity: 1e12 })).toBe(400);
    expect(await post({ title: 'x', capacity: 1.5 })).toBe(400);
    expect(await post({ title: 'x', startsAt: '+275760-09-13T00:00:00Z' })).toBe(400);
    expect(await post({ title: 'x', startsAt: '2027-02-30T10:00:00Z' })).toBe(400);
    expect(await post({ title: 'x\u0000y' })).toBe(400);
    expect(await post({ title: 'x', contributors: 'all' })).toBe(400);
    expect(await post({ title: 'x', orgaTags: [{}] })).toBe(400);
    expect(await post({ title: 'x', contactPerson: { email: 'not-an-email' } })).toBe(400);
    const get = async (q: string) => (await t.call('GET', `/events?${q}`)).status;
    expect(await get('from=-0001-01-01T00:00:00Z')).toBe(400);
    expect(await get(`q=${encodeURIComponent('a\u0000b')}`)).toBe(400);
    expect(await get('page=99999999999')).toBe(400);
    const e = await t.event({ title: 'Probe' });
    expect(
      (await t.call('PUT', `/events/${e.id}/publication`, { published: true, websiteIds: 'x' }))
        .status,
    ).toBe(400);
    expect((await t.call('POST', `/events/${e.id}/publication/validate`)).status).toBe(200);
    expect((await t.call('DELETE', '/events/batch', { ids: Array(1001).fill(e.id) })).status).toBe(
      400,
    );
  });

  it('answers errors in German with Accept-Language: de', async () => {
    const res = await t.call(
      'POST',
      '/events',
      { title: 'x', startsAt: inDays(2, 12), endsAt: inDays(2, 10) },
      t.A,
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('endsAt muss nach startsAt liegen');
  });
});

describe('E2 GET /events/{id}', () => {
  it('reads an event; unknown, malformed and foreign ids are 404', async () => {
    const e = await t.event(full());
    const res = await t.call('GET', `/events/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(e);
    expect((await t.call('GET', `/events/${e.id.toUpperCase()}`)).body.data.id).toBe(e.id);
    expect((await t.call('GET', `/events/${randomUUID()}`)).status).toBe(404);
    expect((await t.call('GET', '/events/not-a-uuid')).status).toBe(404);
    expect((await t.call('GET', `/events/${e.id}`, undefined, t.B)).status).toBe(404);
  });
});

describe('E4 PUT /events/{id}', () => {
  it('replaces the fields, keeps time zone, status, note and publication, and grows the sequence', async () => {
    const e = await t.event(full());
    await t.call('PUT', `/events/${e.id}/notes`, { note: 'internal' });
    const res = await t.call('PUT', `/events/${e.id}`, { title: 'Spring concert' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      title: 'Spring concert',
      subtitle: null,
      venue: null,
      capacity: null,
      contributors: [],
      timeZone: 'Europe/Berlin',
      status: 'scheduled',
      note: 'internal',
      sequence: 1,
    });
    const again = await t.call('PUT', `/events/${e.id}`, {
      title: 'Spring concert',
      status: 'cancelled',
    });
    expect(again.body.data.sequence).toBe(2);
    const outbox = await t.outbox(e.id);
    expect(outbox.map((o) => [o.subject, o.payload.sequence])).toEqual([
      ['events.events.changed', 0],
      ['events.events.changed', 1],
      ['events.events.changed', 2],
    ]);
  });

  it("answers 404 for another tenant's event and changes nothing", async () => {
    const e = await t.event(full());
    const res = await t.call('PUT', `/events/${e.id}`, { title: 'Hijack' }, t.B);
    expect(res.status).toBe(404);
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toEqual(e);
    expect(await t.outbox(e.id)).toHaveLength(1);
  });
});

describe('E5 DELETE /events/{id} and E6 DELETE /events/batch', () => {
  it('deletes one event with events.events.deleted in the same transaction', async () => {
    const e = await t.event({ title: 'Gone' });
    expect((await t.call('DELETE', `/events/${e.id}`, undefined, t.B)).status).toBe(404);
    expect(await t.count('Event', 'id = $1', [e.id])).toBe(1);
    const res = await t.call('DELETE', `/events/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deletedIds: [e.id] });
    expect(await t.count('Event', 'id = $1', [e.id])).toBe(0);
    const outbox = await t.outbox(e.id);
    expect(outbox.at(-1)).toEqual({
      subject: 'events.events.deleted',
      payload: { tenantId: t.A, eventIds: [e.id] },
    });
    expect((await t.call('DELETE', `/events/${e.id}`)).status).toBe(404);
  });

  it('deletes several all or nothing, one message for all ids', async () => {
    const a = await t.event({ title: 'A' });
    const b = await t.event({ title: 'B' });
    const theirs = await t.event({ title: 'C' }, t.B);
    const refused = await t.call('DELETE', '/events/batch', {
      ids: [a.id, theirs.id, randomUUID()],
    });
    expect(refused.status).toBe(404);
    expect(errorsOf(refused.body)).toEqual([
      ['ids[1]', 'unknownEvent'],
      ['ids[2]', 'unknownEvent'],
    ]);
    expect(await t.count('Event', 'id = ANY($1::uuid[])', [[a.id, b.id, theirs.id]])).toBe(3);
    const malformed = await t.call('DELETE', '/events/batch', { ids: [a.id, 'x'] });
    expect(malformed.status).toBe(400);
    expect(errorsOf(malformed.body)).toEqual([['ids[1]', 'isUuid']]);
    expect((await t.call('DELETE', '/events/batch', { ids: [] })).status).toBe(400);
    expect((await t.call('DELETE', '/events/batch', {})).status).toBe(400);
    const ok = await t.call('DELETE', '/events/batch', { ids: [a.id, b.id, a.id.toUpperCase()] });
    expect(ok.status).toBe(200);
    expect([...ok.body.data.deletedIds].sort()).toEqual([a.id, b.id].sort());
    const messages = await t.sql<{ payload: { eventIds: string[] } }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = 'events.events.deleted' AND payload->'eventIds' ? $1`,
      [a.id],
    );
    expect(messages).toHaveLength(1);
    expect([...messages[0].payload.eventIds].sort()).toEqual([a.id, b.id].sort());
    expect(await t.count('Event', 'id = $1', [theirs.id])).toBe(1);
  });
});

describe('E7 POST /events/validate', () => {
  it('answers valid or every problem, without writing', async () => {
    const before = await t.count('Event');
    const ok = await t.call('POST', '/events/validate', full());
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ valid: true, errors: [] });
    const bad = await t.call('POST', '/events/validate', {
      startsAt: inDays(3, 12),
      endsAt: inDays(3, 11),
      capacity: -1,
    });
    expect(bad.status).toBe(200);
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'capacity',
      'endsAt',
      'title',
    ]);
    expect(await t.count('Event')).toBe(before);
  });
});

describe('E9 POST /events/{id}/duplicate', () => {
  it('copies fields and tags into an unpublished event with sequence 0, announced in the outbox', async () => {
    const tag = await t.entry('ORGA_TAGS', `VIP-${randomUUID().slice(0, 6)}`);
    const site = await t.website();
    const e = await t.event({ ...full(), orgaTags: [{ id: tag }] });
    await t.call('PUT', `/events/${e.id}/notes`, { note: 'copied too' });
    const pub = await t.call('PUT', `/events/${e.id}/publication`, {
      published: true,
      websiteIds: [site],
    });
    expect(pub.status).toBe(200);
    expect((await t.call('POST', `/events/${e.id}/duplicate`, undefined, t.B)).status).toBe(404);
    const res = await t.call('POST', `/events/${e.id}/duplicate`);
    expect(res.status).toBe(201);
    const copy = res.body.data;
    expect(copy.id).not.toBe(e.id);
    expect(copy).toMatchObject({
      title: e.title,
      venue: e.venue,
      contributors: e.contributors,
      contactPerson: e.contactPerson,
      taxRateId: 'de-standard',
      orgaTags: [expect.objectContaining({ id: tag })],
      note: 'copied too',
      published: false,
      publishedAt: null,
      websiteIds: [],
      sequence: 0,
    });
    const subjects = (await t.outbox(copy.id)).map((o) => o.subject);
    expect(subjects).toEqual(['events.events.duplicated', 'events.events.changed']);
    const [dup] = await t.sql<{ payload: Record<string, string> }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = 'events.events.duplicated' AND payload->>'eventId' = $1`,
      [copy.id],
    );
    expect(dup.payload).toEqual({ tenantId: t.A, sourceEventId: e.id, eventId: copy.id });
  });
});

describe('E10 PUT /events/{id}/notes', () => {
  it('sets and clears the note; too long is 400; foreign is 404', async () => {
    const e = await t.event({ title: 'N' });
    const set = await t.call('PUT', `/events/${e.id}/notes`, { note: 'hello' });
    expect(set.status).toBe(200);
    expect(set.body.data.note).toBe('hello');
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toMatchObject({
      note: 'hello',
      sequence: 0,
    });
    expect(
      (await t.call('PUT', `/events/${e.id}/notes`, { note: null })).body.data.note,
    ).toBeNull();
    const long = await t.call('PUT', `/events/${e.id}/notes`, { note: 'x'.repeat(10001) });
    expect(errorsOf(long.body)).toEqual([['note', 'maxLength']]);
    expect(errorsOf((await t.call('PUT', `/events/${e.id}/notes`, {})).body)).toEqual([
      ['note', 'isDefined'],
    ]);
    expect((await t.call('PUT', `/events/${e.id}/notes`, { note: 'x' }, t.B)).status).toBe(404);
    expect((await t.call('GET', `/events/${e.id}`)).body.data.note).toBeNull();
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id title sequence published websiteIds note venue { city } orgaTags { id text }';

  it('creates, reads, updates, duplicates, notes and deletes through the same rules', async () => {
    const created = await t.gql(
      `mutation($input: EventInput!) { createEvent(input: $input) { ${FIELDS} } }`,
      { input: { title: 'GQL', venue: { city: 'Hamburg' } } },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createEvent.id;
    const read = await t.gql(`query($id: ID!) { event(id: $id) { ${FIELDS} } }`, { id });
    expect(read.body.data.event).toMatchObject({ title: 'GQL', venue: { city: 'Hamburg' } });
    // unknown, another tenant's or malformed: NOT_FOUND like booking(id) and website(id)
    for (const [asked, tenant] of [
      [id, t.B],
      [randomUUID(), t.A],
      ['not-a-uuid', t.A],
    ] as const) {
      const missing = await t.gql(
        `query($id: ID!) { event(id: $id) { id } }`,
        { id: asked },
        tenant,
      );
      expect(missing.body.data).toBeNull();
      expect(missing.body.errors).toHaveLength(1);
      expect(missing.body.errors[0].extensions).toMatchObject({
        code: 'NOT_FOUND',
        statusCode: 404,
      });
      expect(missing.body.errors[0].message).toContain(asked);
    }
    const updated = await t.gql(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { ${FIELDS} } }`,
      { id, input: { title: 'GQL 2' } },
    );
    expect(updated.body.data.updateEvent).toMatchObject({
      title: 'GQL 2',
      sequence: 1,
      venue: null,
    });
    const bad = await t.gql(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { id } }`,
      { id, input: { title: 'x', capacity: 0 } },
    );
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const note = await t.gql(
      `mutation($id: ID!) { updateEventNote(id: $id, note: "n") { note } }`,
      { id },
    );
    expect(note.body.data.updateEventNote.note).toBe('n');
    const valid = await t.gql(
      `mutation { validateEvent(input: { capacity: 0 }) { valid errors { field rule } } }`,
    );
    expect(valid.body.data.validateEvent.valid).toBe(false);
    expect(
      valid.body.data.validateEvent.errors.map((e: { field: string }) => e.field).sort(),
    ).toEqual(['capacity', 'title']);
    const dup = await t.gql(
      `mutation($id: ID!) { duplicateEvent(id: $id) { id title sequence } }`,
      { id },
    );
    expect(dup.body.data.duplicateEvent).toMatchObject({ title: 'GQL 2', sequence: 0 });
    const foreign = await t.gql(
      `mutation($id: ID!) { deleteEvent(id: $id) { deletedIds } }`,
      { id },
      t.B,
    );
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const many = await t.gql(`mutation($ids: [ID!]!) { deleteEvents(ids: $ids) { deletedIds } }`, {
      ids: [id, dup.body.data.duplicateEvent.id],
    });
    expect(many.body.data.deleteEvents.deletedIds).toHaveLength(2);
  });

  it('resolves Event references in one batch', async () => {
    const a = await t.event({ title: 'Ref A' });
    const b = await t.event({ title: 'Ref B' });
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    const res = await t.gql(
      `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Event { id title } } }`,
      {
        reps: [
          { __typename: 'Event', id: a.id },
          { __typename: 'Event', id: randomUUID() },
          { __typename: 'Event', id: b.id },
        ],
      },
    );
    expect(res.body.data._entities).toEqual([
      { id: a.id, title: 'Ref A' },
      null,
      { id: b.id, title: 'Ref B' },
    ]);
    const eventQueries = spy.mock.calls.filter(([q]) =>
      /FROM "public"\."Event"|"Event"/.test(
        typeof q === 'string' ? q : String((q as { text?: string })?.text),
      ),
    );
    spy.mockRestore();
    expect(eventQueries).toHaveLength(1);
  });
});
