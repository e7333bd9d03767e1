import { EventTestKit, errorsOf } from './test/event-test-kit';

// An event's sale terms (holdMinutes, paymentDeadlineHours, paymentReminderHours) over REST and
// GraphQL on a real database: the defaults, PUT replacing them like every other field, the
// ranges and the rules between deadline and reminder, the duplicate, and the changed snapshot
// that carries them to bookings-invitations.

let t: EventTestKit;
beforeAll(async () => {
  t = await EventTestKit.start('events_it_sale_terms');
}, 60000);
afterAll(async () => t?.close());

const TERMS = { holdMinutes: 30, paymentDeadlineHours: 72, paymentReminderHours: 24 };
const NONE = { holdMinutes: 15, paymentDeadlineHours: null, paymentReminderHours: null };

/** The terms of the last events.events.changed snapshot of an event. */
const snapshotTerms = async (id: string) => {
  const changed = (await t.outbox(id)).filter((o) => o.subject === 'events.events.changed');
  const { holdMinutes, paymentDeadlineHours, paymentReminderHours } = changed.at(-1)!.payload;
  return { holdMinutes, paymentDeadlineHours, paymentReminderHours };
};

describe('REST', () => {
  it('E3 keeps the terms given, E2 reads them, the snapshot carries them', async () => {
    const e = await t.event({ title: 'Terms', ...TERMS });
    expect(e).toMatchObject(TERMS);
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toMatchObject(TERMS);
    expect(await snapshotTerms(e.id)).toEqual(TERMS);
  });

  it('E3 without terms (or with null): 15 minutes, no deadline, no reminder', async () => {
    const e = await t.event({ title: 'No terms' });
    expect(e).toMatchObject(NONE);
    expect(await snapshotTerms(e.id)).toEqual(NONE);
    const nulls = await t.event({
      title: 'Null terms',
      holdMinutes: null,
      paymentDeadlineHours: null,
      paymentReminderHours: null,
    });
    expect(nulls).toMatchObject(NONE);
  });

  it('the bounds are allowed: 1 and 1440 minutes, 8760 hours with a reminder at 8759', async () => {
    const low = await t.event({ title: 'Low', holdMinutes: 1, paymentDeadlineHours: 1 });
    expect(low).toMatchObject({ holdMinutes: 1, paymentDeadlineHours: 1 });
    const high = await t.event({
      title: 'High',
      holdMinutes: 1440,
      paymentDeadlineHours: 8760,
      paymentReminderHours: 8759,
    });
    expect(high).toMatchObject({
      holdMinutes: 1440,
      paymentDeadlineHours: 8760,
      paymentReminderHours: 8759,
    });
  });

  it('E4 PUT replaces the terms like every field: given ones are set, absent ones go back to their defaults', async () => {
    const e = await t.event({ title: 'Put', ...TERMS });
    const changed = await t.call('PUT', `/events/${e.id}`, {
      title: 'Put',
      holdMinutes: 45,
      paymentDeadlineHours: 48,
      paymentReminderHours: 12,
    });
    expect(changed.status).toBe(200);
    const after = { holdMinutes: 45, paymentDeadlineHours: 48, paymentReminderHours: 12 };
    expect(changed.body.data).toMatchObject({ ...after, sequence: 1 });
    expect(await snapshotTerms(e.id)).toEqual(after);
    const cleared = await t.call('PUT', `/events/${e.id}`, { title: 'Put' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ ...NONE, sequence: 2 });
    expect(await snapshotTerms(e.id)).toEqual(NONE);
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toMatchObject(NONE);
  });

  it('E4 may drop the reminder and keep the deadline', async () => {
    const e = await t.event({ title: 'Drop', ...TERMS });
    const res = await t.call('PUT', `/events/${e.id}`, {
      title: 'Drop',
      holdMinutes: 30,
      paymentDeadlineHours: 72,
      paymentReminderHours: null,
    });
    expect(res.body.data).toMatchObject({ ...TERMS, paymentReminderHours: null });
  });

  it('refuses terms out of range with 400 naming the field and the rule, and writes nothing', async () => {
    const before = await t.count('Event');
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [{ holdMinutes: 0 }, [['holdMinutes', 'min']]],
      [{ holdMinutes: 1441 }, [['holdMinutes', 'max']]],
      [{ holdMinutes: 1.5 }, [['holdMinutes', 'isInt']]],
      [{ holdMinutes: '15' }, [['holdMinutes', 'isInt']]],
      [{ paymentDeadlineHours: 0 }, [['paymentDeadlineHours', 'min']]],
      [{ paymentDeadlineHours: 8761 }, [['paymentDeadlineHours', 'max']]],
      [{ paymentDeadlineHours: true }, [['paymentDeadlineHours', 'isInt']]],
      [{ paymentDeadlineHours: 100, paymentReminderHours: 0 }, [['paymentReminderHours', 'min']]],
      [
        { paymentDeadlineHours: 8760, paymentReminderHours: 8760 },
        [['paymentReminderHours', 'max']],
      ],
      [{ paymentReminderHours: 24 }, [['paymentReminderHours', 'needsDeadline']]],
      [
        { paymentDeadlineHours: null, paymentReminderHours: 24 },
        [['paymentReminderHours', 'needsDeadline']],
      ],
      [
        { paymentDeadlineHours: 24, paymentReminderHours: 24 },
        [['paymentReminderHours', 'lessThanDeadline']],
      ],
      [
        { paymentDeadlineHours: 24, paymentReminderHours: 48 },
        [['paymentReminderHours', 'lessThanDeadline']],
      ],
    ];
    for (const [terms, expected] of cases) {
      const res = await t.call('POST', '/events', { title: 'Bad', ...terms });
      expect([terms, res.status, errorsOf(res.body)]).toEqual([terms, 400, expected]);
    }
    expect(await t.count('Event')).toBe(before);
    const e = await t.event({ title: 'Kept', ...TERMS });
    const put = await t.call('PUT', `/events/${e.id}`, {
      title: 'Kept',
      paymentDeadlineHours: 12,
      paymentReminderHours: 12,
    });
    expect(put.status).toBe(400);
    expect(put.body.errors).toEqual([
      {
        field: 'paymentReminderHours',
        rule: 'lessThanDeadline',
        message:
          'paymentReminderHours must be less than paymentDeadlineHours (12): the reminder comes before the deadline',
      },
    ]);
    expect((await t.call('GET', `/events/${e.id}`)).body.data).toMatchObject({
      ...TERMS,
      sequence: 0,
    });
  });

  it('answers hostile terms with 400, never 500', async () => {
    for (const value of [1e308, -1, 2 ** 31, '1e3', {}, [], { constructor: 1 }, 'NaN']) {
      for (const field of ['holdMinutes', 'paymentDeadlineHours', 'paymentReminderHours']) {
        const body = { title: 'Hostile', paymentDeadlineHours: 10, [field]: value };
        const res = await t.call('POST', '/events', body);
        expect([body, res.status]).toEqual([body, 400]);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
        const check = await t.call('POST', '/events/validate', body);
        expect([body, check.status, check.body.data.valid]).toEqual([body, 200, false]);
      }
    }
  });

  it('E7 reports the rules of the terms with the other problems', async () => {
    const res = await t.call('POST', '/events/validate', {
      title: 'Check',
      holdMinutes: 0,
      paymentDeadlineHours: 10,
      paymentReminderHours: 10,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(errorsOf(res.body.data).sort()).toEqual([
      ['holdMinutes', 'min'],
      ['paymentReminderHours', 'lessThanDeadline'],
    ]);
    const ok = await t.call('POST', '/events/validate', { title: 'Check', ...TERMS });
    expect(ok.body.data).toEqual({ valid: true, errors: [] });
    const noDeadline = await t.call('POST', '/events/validate', {
      title: 'Check',
      paymentReminderHours: 5,
    });
    expect(errorsOf(noDeadline.body.data)).toEqual([['paymentReminderHours', 'needsDeadline']]);
  });

  it('E9 copies the terms to the duplicate and its snapshot', async () => {
    const e = await t.event({ title: 'Source', ...TERMS });
    const res = await t.call('POST', `/events/${e.id}/duplicate`);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject(TERMS);
    expect(await snapshotTerms(res.body.data.id)).toEqual(TERMS);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id holdMinutes paymentDeadlineHours paymentReminderHours sequence';

  it('creates, reads and updates the terms through the same rules', async () => {
    const created = await t.gql(
      `mutation($input: EventInput!) { createEvent(input: $input) { ${FIELDS} } }`,
      { input: { title: 'GQL terms', ...TERMS } },
    );
    expect(created.body.errors).toBeUndefined();
    const { id } = created.body.data.createEvent;
    expect(created.body.data.createEvent).toMatchObject(TERMS);
    const read = await t.gql(`query($id: ID!) { event(id: $id) { ${FIELDS} } }`, { id });
    expect(read.body.data.event).toMatchObject(TERMS);
    const updated = await t.gql(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { ${FIELDS} } }`,
      { id, input: { title: 'GQL terms', holdMinutes: 20 } },
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateEvent).toMatchObject({ ...NONE, holdMinutes: 20, sequence: 1 });
    const bad = await t.gql(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { id } }`,
      {
        id,
        input: { title: 'x', holdMinutes: 2000, paymentDeadlineHours: 5, paymentReminderHours: 5 },
      },
    );
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(
      bad.body.errors[0].extensions.errors.map((e: { field: string; rule: string }) => [
        e.field,
        e.rule,
      ]),
    ).toEqual([['holdMinutes', 'max']]);
    const cross = await t.gql(
      `mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { id } }`,
      { id, input: { title: 'x', paymentReminderHours: 5 } },
    );
    expect(cross.body.errors[0].extensions.errors).toEqual([
      expect.objectContaining({ field: 'paymentReminderHours', rule: 'needsDeadline' }),
    ]);
    const valid = await t.gql(
      `mutation { validateEvent(input: { paymentDeadlineHours: 2, paymentReminderHours: 3 }) { valid errors { field rule } } }`,
    );
    expect(valid.body.data.validateEvent.errors).toEqual(
      expect.arrayContaining([{ field: 'paymentReminderHours', rule: 'lessThanDeadline' }]),
    );
    expect(
      (await t.gql(`query($id: ID!) { event(id: $id) { ${FIELDS} } }`, { id })).body.data.event,
    ).toMatchObject({
      ...NONE,
      holdMinutes: 20,
      sequence: 1,
    });
  });
});

describe('maxTicketsPerBuyer (the limit per buyer, against scalpers)', () => {
  const snapshotMax = async (id: string) =>
    (await t.outbox(id)).filter((o) => o.subject === 'events.events.changed').at(-1)!.payload
      .maxTicketsPerBuyer;

  it('E3 keeps it, E2 and GraphQL read it, the snapshot carries it, E9 copies it, E4 without it clears it', async () => {
    const e = await t.event({ title: 'Limited', maxTicketsPerBuyer: 4 });
    expect(e.maxTicketsPerBuyer).toBe(4);
    expect((await t.call('GET', `/events/${e.id}`)).body.data.maxTicketsPerBuyer).toBe(4);
    const read = await t.gql(`query($id: ID!) { event(id: $id) { maxTicketsPerBuyer } }`, {
      id: e.id,
    });
    expect(read.body.data.event.maxTicketsPerBuyer).toBe(4);
    expect(await snapshotMax(e.id)).toBe(4);
    const copy = await t.call('POST', `/events/${e.id}/duplicate`);
    expect(copy.body.data.maxTicketsPerBuyer).toBe(4);
    const put = await t.call('PUT', `/events/${e.id}`, { title: 'Limited' });
    expect(put.body.data.maxTicketsPerBuyer).toBeNull();
    expect(await snapshotMax(e.id)).toBeNull();
    expect((await t.event({ title: 'Unlimited' })).maxTicketsPerBuyer).toBeNull();
  });

  it('refuses it out of range with 400 naming the field and the rule', async () => {
    const cases: [unknown, string][] = [
      [0, 'min'],
      [1001, 'max'],
      [2.5, 'isInt'],
      ['4', 'isInt'],
    ];
    for (const [value, rule] of cases) {
      const res = await t.call('POST', '/events', { title: 'Bad', maxTicketsPerBuyer: value });
      expect([value, res.status, errorsOf(res.body)]).toEqual([
        value,
        400,
        [['maxTicketsPerBuyer', rule]],
      ]);
    }
    expect((await t.event({ title: 'Edge', maxTicketsPerBuyer: 1000 })).maxTicketsPerBuyer).toBe(
      1000,
    );
  });
});

describe('waitingListOfferMinutes (how long a waiting-list offer waits)', () => {
  const snapshot = async (id: string) =>
    (await t.outbox(id)).filter((o) => o.subject === 'events.events.changed').at(-1)!.payload;

  it('E3 keeps it (default 1440), E2 and GraphQL read it, the snapshot carries it, E9 copies it, E4 without it resets it', async () => {
    const e = await t.event({ title: 'Waiting', waitingListOfferMinutes: 120 });
    expect(e.waitingListOfferMinutes).toBe(120);
    expect((await t.call('GET', `/events/${e.id}`)).body.data.waitingListOfferMinutes).toBe(120);
    const read = await t.gql(`query($id: ID!) { event(id: $id) { waitingListOfferMinutes } }`, {
      id: e.id,
    });
    expect(read.body.data.event.waitingListOfferMinutes).toBe(120);
    expect((await snapshot(e.id)).waitingListOfferMinutes).toBe(120);
    const copy = await t.call('POST', `/events/${e.id}/duplicate`);
    expect(copy.body.data.waitingListOfferMinutes).toBe(120);
    const put = await t.call('PUT', `/events/${e.id}`, { title: 'Waiting' });
    expect(put.body.data.waitingListOfferMinutes).toBe(1440);
    expect((await snapshot(e.id)).waitingListOfferMinutes).toBe(1440);
    const nulls = await t.event({ title: 'Default', waitingListOfferMinutes: null });
    expect(nulls.waitingListOfferMinutes).toBe(1440);
  });

  it('refuses it out of range with 400 naming the field and the rule', async () => {
    const cases: [unknown, string][] = [
      [0, 'min'],
      [10081, 'max'],
      [2.5, 'isInt'],
      ['60', 'isInt'],
    ];
    for (const [value, rule] of cases) {
      const res = await t.call('POST', '/events', { title: 'Bad', waitingListOfferMinutes: value });
      expect([value, res.status, errorsOf(res.body)]).toEqual([
        value,
        400,
        [['waitingListOfferMinutes', rule]],
      ]);
    }
    const edge = await t.event({ title: 'Edge', waitingListOfferMinutes: 10080 });
    expect(edge.waitingListOfferMinutes).toBe(10080);
  });
});
