import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { Subjects, uuidv7 } from '@crm/messaging';
import { ServiceTestKit } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { asTenantDo, inspect } from '../test/scopes';
import { RunningService, startEvents } from '../test/service-harness';
import { eventually, Received, SourceEvents, WebhookReceiver } from './test/webhook-receiver';
import { WebhookFanout } from './webhook-fanout.service';
import { WebhookWorker } from './webhook-worker.service';

// I1-I6 against the real service, PostgreSQL and NATS, delivering to real HTTP receivers on
// 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_ADDRESSES on), retries after 1 s so the schedule runs in
// seconds. Source events are published to JetStream the way the other services' relays do.

jest.setTimeout(60000);

let svc: RunningService;
let t: ServiceTestKit;
let db: PrismaService;
let source: SourceEvents;
const receivers: WebhookReceiver[] = [];
const C = `tenant-c-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  svc = await startEvents('events_it_webhooks', {
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_RETRY_SCHEDULE_S: '1,1,1,1,1',
    WEBHOOK_WORKER_POLL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_MAX_ENDPOINTS_PER_TENANT: '3',
  });
  t = new ServiceTestKit(svc);
  db = svc.app.get(PrismaService);
  source = await SourceEvents.connect();
}, 60000);
afterAll(async () => {
  await source?.close();
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

async function receiver(answer?: (n: number, r: Received) => number) {
  const r = await WebhookReceiver.start(answer);
  receivers.push(r);
  return r;
}

async function register(url: string, eventTypes = ['person.created'], tenant = t.A, extra = {}) {
  const res = await t.call('POST', '/integrations/webhooks', { url, eventTypes, ...extra }, tenant);
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const personCreated = (tenantId: string, personIds = [randomUUID()]) =>
  source.publish(Subjects.crmPeople.peopleCreated, { tenantId, personIds });

const deliveries = async (endpointId: string, tenant = t.A) =>
  (await t.call('GET', `/integrations/webhooks/${endpointId}/deliveries`, undefined, tenant)).body
    .data as {
    id: string;
    messageId: string;
    status: string;
    attempts: number;
    attemptLog: { responseCode: number | null }[];
  }[];

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'],
    'webhook-timestamp': r.headers['webhook-timestamp'],
    'webhook-signature': r.headers['webhook-signature'],
  });

describe('I1, I2 endpoints', () => {
  it('shows the secret once, at registration; reads never show it', async () => {
    const res = await t.call('POST', '/integrations/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      description: '  CRM sync ',
      eventTypes: ['person.created', 'event.published'],
    });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      description: 'CRM sync',
      eventTypes: ['person.created', 'event.published'],
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);

    const read = await t.call('GET', `/integrations/webhooks/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(created.secret.slice(6));
    expect(read.body.data).not.toHaveProperty('secret');
    const list = await t.call('GET', '/integrations/webhooks?pageSize=500');
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(created.id);
    expect(list.text).not.toContain('whsec_');
  });

  it.each([
    [{ url: 'http://127.0.0.1:9/x', eventTypes: [] }, 'eventTypes'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['person.exploded'] }, 'eventTypes'],
    [{ url: 'http://127.0.0.1:9/x' }, 'eventTypes'],
    [{ url: 'ftp://127.0.0.1/x', eventTypes: ['person.created'] }, 'url'],
    [{ url: 'no url', eventTypes: ['person.created'] }, 'url'],
    [{ eventTypes: ['person.created'] }, 'url'],
    [{ url: 42, eventTypes: ['person.created'] }, 'url'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['person.created'], enabled: 'yes' }, 'enabled'],
  ])('400 naming the field: %j', async (body, field) => {
    const res = await t.call('POST', '/integrations/webhooks', body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("names the rule in the caller's language; a URL too long once normalised is a 400", async () => {
    const body = { url: 'ftp://127.0.0.1/x', eventTypes: ['person.created'] };
    const de = await t.call('POST', '/integrations/webhooks', body, t.A, {
      'Accept-Language': 'de',
    });
    expect(de.body.errors).toEqual([
      { field: 'url', rule: 'httpsUrl', message: 'url muss eine https-URL sein' },
    ]);
    const en = await t.call('POST', '/integrations/webhooks', body);
    expect(en.body.errors).toEqual([
      { field: 'url', rule: 'httpsUrl', message: 'url must be an https URL' },
    ]);
    const long = await t.call('POST', '/integrations/webhooks', {
      url: `http://127.0.0.1:9/${'ä'.repeat(1000)}`,
      eventTypes: ['person.created'],
    });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].field).toBe('url');
  });

  it('409 beyond the tenant limit (3 in this test)', async () => {
    for (let i = 0; i < 3; i++) await register(`http://127.0.0.1:9/${i}`, undefined, C);
    const res = await t.call(
      'POST',
      '/integrations/webhooks',
      { url: 'http://127.0.0.1:9/4', eventTypes: ['person.created'] },
      C,
    );
    expect(res.status).toBe(409);
    expect(await inspect(() => db.webhookEndpoint.count({ where: { tenantId: C } }))).toBe(3);
  });

  it('updates; disabling says why, enabling clears it', async () => {
    const { id } = await register('http://127.0.0.1:9/u');
    const off = await t.call('PUT', `/integrations/webhooks/${id}`, {
      enabled: false,
      description: 'paused',
      eventTypes: ['company.deleted'],
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({
      enabled: false,
      description: 'paused',
      eventTypes: ['company.deleted'],
      disabledReason: 'Disabled by the owner',
    });
    expect(off.body.data.disabledAt).toBeTruthy();
    const on = await t.call('PUT', `/integrations/webhooks/${id}`, { enabled: true });
    expect(on.body.data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    const bad = await t.call('PUT', `/integrations/webhooks/${id}`, { eventTypes: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('eventTypes');
  });

  it("another tenant's endpoint is 404 on every route, with nothing changed", async () => {
    const { id } = await register('http://127.0.0.1:9/a');
    const before = await inspect(() => db.webhookEndpoint.findUniqueOrThrow({ where: { id } }));
    const base = `/integrations/webhooks/${id}`;
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['PUT', base, { enabled: false }],
      ['DELETE', base, undefined],
      ['GET', `${base}/deliveries`, undefined],
      ['POST', `${base}/deliveries/${randomUUID()}/redeliver`, undefined],
      ['POST', `${base}/replay`, { since: '2020-01-01T00:00:00Z' }],
      ['POST', `${base}/secret`, {}],
    ] as const) {
      const res = await t.call(method, path, body, t.B);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect(await inspect(() => db.webhookEndpoint.findUniqueOrThrow({ where: { id } }))).toEqual(
      before,
    );
    expect((await t.call('GET', '/integrations/webhooks/not-a-uuid')).status).toBe(404);
  });

  it('removes an endpoint with its deliveries', async () => {
    const tenant = `tenant-r-${randomUUID().slice(0, 8)}`;
    const { id } = await register('http://127.0.0.1:9/r', ['person.deleted'], tenant);
    // as the consumer of the source event does it: in a transaction as the event's tenant
    await asTenantDo(tenant, () =>
      db.$transaction((tx) =>
        svc.app.get(WebhookFanout).fanOut(tx, tenant, 'person.deleted', randomUUID(), {}),
      ),
    );
    expect(await inspect(() => db.webhookDelivery.count({ where: { endpointId: id } }))).toBe(1);
    const res = await t.call('DELETE', `/integrations/webhooks/${id}`, undefined, tenant);
    expect(res.body.data).toEqual({ id });
    expect(await inspect(() => db.webhookDelivery.count({ where: { endpointId: id } }))).toBe(0);
    expect((await t.call('GET', `/integrations/webhooks/${id}`, undefined, tenant)).status).toBe(
      404,
    );
    expect((await t.call('DELETE', `/integrations/webhooks/${id}`, undefined, tenant)).status).toBe(
      404,
    );
  });
});

describe('delivery', () => {
  it('delivers person.created, signed (Standard Webhooks), only to subscribed enabled endpoints of the tenant', async () => {
    const tenant = `tenant-d-${randomUUID().slice(0, 8)}`;
    const [hit, other, off, foreign] = await Promise.all([
      receiver(),
      receiver(),
      receiver(),
      receiver(),
    ]);
    const ep = await register(hit.url, ['person.created', 'person.deleted'], tenant);
    await register(other.url, ['company.deleted'], tenant);
    await register(off.url, ['person.created'], tenant, { enabled: false });
    await register(foreign.url, ['person.created'], `other-${tenant}`);

    const personId = randomUUID();
    await personCreated(tenant, [personId]);
    const [got] = await hit.waitFor(1);
    const payload = verify(ep.secret, got) as { type: string; timestamp: string; data: unknown };
    expect(payload).toMatchObject({ type: 'person.created', data: { personIds: [personId] } });
    expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
    expect(got.headers['content-type']).toBe('application/json');

    const [delivery] = await eventually(async () => {
      const list = await deliveries(ep.id, tenant);
      return list[0]?.status === 'succeeded' ? list : null;
    });
    expect(delivery).toMatchObject({ messageId: got.headers['webhook-id'], attempts: 1 });
    expect(delivery.attemptLog).toEqual([expect.objectContaining({ responseCode: 200 })]);

    await new Promise((r) => setTimeout(r, 500));
    expect([other.received, off.received, foreign.received]).toEqual([[], [], []]);
  });

  it('turns every source of the catalogue into its type and data', async () => {
    const tenant = `tenant-s-${randomUUID().slice(0, 8)}`;
    const r = await receiver();
    const types = [
      'person.deleted',
      'company.deleted',
      'event.published',
      'event.deleted',
      'website.migrated',
    ];
    const ep = await register(r.url, types, tenant);
    const [p, c, e, w, w2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await source.publish(Subjects.crmPeople.peopleDeleted, { tenantId: tenant, personIds: [p] });
    await source.publish(Subjects.crmCompanies.companiesDeleted, {
      tenantId: tenant,
      companyIds: [c],
    });
    await source.publish(Subjects.events.eventPublished, {
      tenantId: tenant,
      eventId: e,
      title: 'Summer party',
      startsAt: '2026-07-01T16:00:00.000Z',
      websiteIds: [w],
    });
    await source.publish(Subjects.events.eventsDeleted, { tenantId: tenant, eventIds: [e] });
    await source.publish(Subjects.events.websiteMigrated, {
      tenantId: tenant,
      websiteId: w,
      targetWebsiteId: w2,
      eventIds: [e],
    });
    const got = await r.waitFor(5);
    const byType = Object.fromEntries(
      got.map((g) => {
        const payload = verify(ep.secret, g) as { type: string; data: unknown };
        return [payload.type, payload.data];
      }),
    );
    expect(byType).toEqual({
      'person.deleted': { personIds: [p] },
      'company.deleted': { companyIds: [c] },
      'event.published': {
        eventId: e,
        title: 'Summer party',
        startsAt: '2026-07-01T16:00:00.000Z',
        websiteIds: [w],
      },
      'event.deleted': { eventIds: [e] },
      'website.migrated': { websiteId: w, targetWebsiteId: w2, eventIds: [e] },
    });
  });

  it('delivers bookings-invitations’ visitor activities: booking.created, booking.cancelled, invitation.rejected, ticket.checked_in', async () => {
    const tenant = `tenant-v-${randomUUID().slice(0, 8)}`;
    const r = await receiver();
    const types = [
      'booking.created',
      'booking.cancelled',
      'invitation.rejected',
      'ticket.checked_in',
    ];
    const ep = await register(r.url, types, tenant);
    // an endpoint of the same tenant that did not subscribe to them gets nothing
    const quiet = await receiver();
    await register(quiet.url, ['person.created'], tenant);
    const [event, person, booking, invitation, ticket] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const base = { tenantId: tenant, eventId: event, eventTitle: 'Gala', personId: person };
    await source.publish(Subjects.bookingsInvitations.bookingCreated, {
      ...base,
      at: '2026-07-01T10:00:00.000Z',
      language: 'de',
      bookingId: booking,
      tickets: 2,
      totalGross: '238.00',
      currency: 'EUR',
      invitationId: invitation,
    });
    await source.publish(Subjects.bookingsInvitations.bookingCancelled, {
      ...base,
      personId: null,
      at: '2026-07-02T10:00:00.000Z',
      bookingId: booking,
      cancellationFee: '23.80',
      refundAmount: '214.20',
      reason: 'booker',
    });
    await source.publish(Subjects.bookingsInvitations.invitationRejected, {
      ...base,
      at: '2026-07-03T10:00:00.000Z',
      invitationId: invitation,
    });
    await source.publish(Subjects.bookingsInvitations.ticketCheckedIn, {
      ...base,
      at: '2026-07-04T10:00:00.000Z',
      ticketId: ticket,
      bookingId: booking,
      location: 'Main entrance',
    });
    // accepted invitations are no webhook type: nothing is sent for them
    await source.publish(Subjects.bookingsInvitations.invitationAccepted, {
      ...base,
      at: '2026-07-03T11:00:00.000Z',
      invitationId: invitation,
    });
    const got = await r.waitFor(4);
    const byType = Object.fromEntries(
      got.map((g) => {
        const payload = verify(ep.secret, g) as { type: string; data: unknown };
        return [payload.type, payload.data];
      }),
    );
    const common = { eventId: event, eventTitle: 'Gala', personId: person };
    expect(byType).toEqual({
      'booking.created': {
        ...common,
        at: '2026-07-01T10:00:00.000Z',
        bookingId: booking,
        tickets: 2,
        totalGross: '238.00',
        currency: 'EUR',
        invitationId: invitation,
      },
      'booking.cancelled': {
        ...common,
        personId: null,
        at: '2026-07-02T10:00:00.000Z',
        bookingId: booking,
        cancellationFee: '23.80',
        refundAmount: '214.20',
        reason: 'booker',
      },
      'invitation.rejected': {
        ...common,
        at: '2026-07-03T10:00:00.000Z',
        invitationId: invitation,
      },
      'ticket.checked_in': {
        ...common,
        at: '2026-07-04T10:00:00.000Z',
        ticketId: ticket,
        bookingId: booking,
        location: 'Main entrance',
      },
    });
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(4);
    expect(quiet.received).toHaveLength(0);
  });

  it('a receiver failing three times then succeeding gets the same webhook-id four times', async () => {
    const tenant = `tenant-f-${randomUUID().slice(0, 8)}`;
    const r = await receiver((n) => (n <= 3 ? 503 : 204));
    const ep = await register(r.url, ['person.created'], tenant);
    await personCreated(tenant);
    const got = await r.waitFor(4);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    for (const g of got) verify(ep.secret, g);
    // the receiver's view: the event itself once (it dedupes on webhook-id, as the convention says)
    const accepted = new Set(got.slice(3).map((g) => g.headers['webhook-id']));
    expect(accepted.size).toBe(1);

    const list = await eventually(async () => {
      const l = await deliveries(ep.id, tenant);
      return l[0]?.status === 'succeeded' ? l : null;
    });
    expect(list).toHaveLength(1);
    expect(list[0].attempts).toBe(4);
    expect(list[0].attemptLog.map((a) => a.responseCode)).toEqual([204, 503, 503, 503]);
    const failed = await t.call(
      'GET',
      `/integrations/webhooks/${ep.id}/deliveries?status=failed`,
      undefined,
      tenant,
    );
    expect(failed.body.data).toEqual([]);
    const endpoint = await t.call('GET', `/integrations/webhooks/${ep.id}`, undefined, tenant);
    expect(endpoint.body.data.failingSince).toBeNull();
  });

  it('a tenant without an endpoint for the type stores nothing, not even the event as applied; one with an endpoint gets its delivery', async () => {
    const unsubscribed = `tenant-n-${randomUUID().slice(0, 8)}`;
    const subscribed = `tenant-y-${randomUUID().slice(0, 8)}`;
    const hit = await receiver();
    await register(hit.url, ['person.created'], subscribed);
    await register('http://127.0.0.1:9/other-type', ['company.deleted'], unsubscribed);
    const skipped = await personCreated(unsubscribed);
    const fannedOut = await personCreated(subscribed);
    // One subject's events are applied in order: once this delivery arrives, `skipped` is done.
    await hit.waitFor(1);
    const applied = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM "ProcessedEvent" WHERE id = ANY($1::uuid[])`,
      [skipped, fannedOut],
    );
    expect(applied).toEqual([{ id: fannedOut }]);
    expect(
      await inspect(() => db.webhookMessage.count({ where: { tenantId: unsubscribed } })),
    ).toBe(0);

    // Nothing cached: an endpoint registered now counts for the very next event.
    const late = await receiver();
    const ep = await register(late.url, ['person.created'], unsubscribed);
    const personId = randomUUID();
    await personCreated(unsubscribed, [personId]);
    const [got] = await late.waitFor(1);
    expect(verify(ep.secret, got)).toMatchObject({ data: { personIds: [personId] } });
  });

  it('an endpoint registered during a backlog gets only what happened after its registration', async () => {
    const tenant = `tenant-b-${randomUUID().slice(0, 8)}`;
    // A burst just before the registration: consumed before it (no endpoint yet) or after it
    // (the consumer behind), either way not the new endpoint's.
    const burst = Array.from({ length: 200 }, () =>
      source.publish(
        Subjects.crmPeople.peopleCreated,
        { tenantId: tenant, personIds: [randomUUID()] },
        uuidv7(),
      ),
    );
    const hit = await receiver();
    const ep = await register(hit.url, ['person.created'], tenant);
    const registeredAt = Date.now();
    await Promise.all(burst);
    // A backlog consumed after the registration for sure: events written a minute before it
    // (an outbox relay that was down, a consumer that was far behind).
    for (let i = 0; i < 20; i++) {
      await source.publish(
        Subjects.crmPeople.peopleCreated,
        { tenantId: tenant, personIds: [randomUUID()] },
        uuidv7(registeredAt - 60_000 + i),
      );
    }
    const personId = randomUUID();
    await source.publish(
      Subjects.crmPeople.peopleCreated,
      { tenantId: tenant, personIds: [personId] },
      uuidv7(),
    );
    // One subject's events are applied in order: once this one arrives, the backlog is done.
    const [got] = await hit.waitFor(1);
    expect(verify(ep.secret, got)).toMatchObject({ data: { personIds: [personId] } });
    expect(await inspect(() => db.webhookMessage.count({ where: { tenantId: tenant } }))).toBe(1);
    expect(await deliveries(ep.id, tenant)).toHaveLength(1);
    expect(hit.received).toHaveLength(1);
  });

  it('a source event fanned out twice stores one message and one delivery per endpoint', async () => {
    const tenant = `tenant-x-${randomUUID().slice(0, 8)}`;
    await register('http://127.0.0.1:9/dup', ['person.deleted'], tenant);
    const fanout = svc.app.get(WebhookFanout);
    const eventId = randomUUID();
    const counts = [];
    for (let i = 0; i < 2; i++) {
      counts.push(
        await asTenantDo(tenant, () =>
          db.$transaction((tx) =>
            fanout.fanOut(tx, tenant, 'person.deleted', eventId, { personIds: [] }),
          ),
        ),
      );
    }
    expect(counts).toEqual([1, 0]);
    expect(await inspect(() => db.webhookMessage.count({ where: { tenantId: tenant } }))).toBe(1);
  });

  it('410 Gone disables the endpoint at once, with the reason', async () => {
    const tenant = `tenant-g-${randomUUID().slice(0, 8)}`;
    const r = await receiver(() => 410);
    const ep = await register(r.url, ['person.created'], tenant);
    await personCreated(tenant);
    await r.waitFor(1);
    const endpoint = await eventually(async () => {
      const e = (await t.call('GET', `/integrations/webhooks/${ep.id}`, undefined, tenant)).body
        .data;
      return e.enabled === false ? e : null;
    });
    expect(endpoint.disabledReason).toMatch(/410 Gone/);
    expect(endpoint.disabledAt).toBeTruthy();
    const [delivery] = await deliveries(ep.id, tenant);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    expect(delivery.attemptLog).toEqual([expect.objectContaining({ responseCode: 410 })]);

    // a later event is kept for it as not sent (I5 can replay it once enabled), nothing is sent
    await personCreated(tenant);
    const kept = await eventually(async () => {
      const l = await deliveries(ep.id, tenant);
      return l.length === 2 ? l : null;
    });
    expect(kept[0]).toMatchObject({ status: 'failed', attempts: 0, attemptLog: [] });
    expect((kept[0] as unknown as { lastError: string }).lastError).toMatch(/disabled/);
    await new Promise((res) => setTimeout(res, 1000));
    expect(r.received).toHaveLength(1);

    // I4 on a disabled endpoint queues but enables nothing
    const again = await t.call(
      'POST',
      `/integrations/webhooks/${ep.id}/deliveries/${delivery.id}/redeliver`,
      undefined,
      tenant,
    );
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      endpointEnabled: false,
      delivery: { status: 'pending' },
    });
    await new Promise((res) => setTimeout(res, 800));
    expect(r.received).toHaveLength(1);
  });
});

describe('I4, I5, I6', () => {
  it('I4 sends a succeeded delivery again with the same webhook-id; unknown ids are 404', async () => {
    const tenant = `tenant-h-${randomUUID().slice(0, 8)}`;
    const r = await receiver();
    const ep = await register(r.url, ['person.created'], tenant);
    await personCreated(tenant);
    const [first] = await r.waitFor(1);
    const [delivery] = await eventually(async () => {
      const l = await deliveries(ep.id, tenant);
      return l[0]?.status === 'succeeded' ? l : null;
    });
    const res = await t.call(
      'POST',
      `/integrations/webhooks/${ep.id}/deliveries/${delivery.id}/redeliver`,
      undefined,
      tenant,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      endpointEnabled: true,
      delivery: { id: delivery.id, status: 'pending', attempts: 0 },
    });
    const got = await r.waitFor(2);
    expect(got[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(got[1].body).toBe(first.body);
    const after = await eventually(async () => {
      const l = await deliveries(ep.id, tenant);
      return l[0]?.status === 'succeeded' ? l : null;
    });
    expect(after[0].id).toBe(delivery.id);
    expect(after[0].attemptLog).toHaveLength(2);

    for (const id of [randomUUID(), 'nope']) {
      const missing = await t.call(
        'POST',
        `/integrations/webhooks/${ep.id}/deliveries/${id}/redeliver`,
        undefined,
        tenant,
      );
      expect(missing.status).toBe(404);
    }
  });

  it('I5 queues every delivery since a time again; the bound and a bad time are 400', async () => {
    const tenant = `tenant-i-${randomUUID().slice(0, 8)}`;
    const r = await receiver();
    const ep = await register(r.url, ['person.created'], tenant);
    const since = new Date().toISOString();
    await personCreated(tenant);
    await personCreated(tenant);
    await r.waitFor(2);
    await eventually(async () => {
      const l = await deliveries(ep.id, tenant);
      return l.length === 2 && l.every((d) => d.status === 'succeeded');
    });
    const res = await t.call('POST', `/integrations/webhooks/${ep.id}/replay`, { since }, tenant);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ queued: 2, endpointEnabled: true });
    const got = await r.waitFor(4);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(2);

    const future = await t.call(
      'POST',
      `/integrations/webhooks/${ep.id}/replay`,
      { since: new Date(Date.now() + 60_000).toISOString() },
      tenant,
    );
    expect(future.body.data.queued).toBe(0);
    for (const body of [{}, { since: 'yesterday' }, { since: 5 }]) {
      const bad = await t.call('POST', `/integrations/webhooks/${ep.id}/replay`, body, tenant);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('since');
    }
  });

  it('I6: both secrets verify during the overlap, only the new one after', async () => {
    const tenant = `tenant-j-${randomUUID().slice(0, 8)}`;
    const r = await receiver();
    const ep = await register(r.url, ['person.created'], tenant);
    const rotated = await t.call('POST', `/integrations/webhooks/${ep.id}/secret`, {}, tenant);
    expect(rotated.status).toBe(200);
    const { secret, previousSecretExpiresAt } = rotated.body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(ep.secret);
    const hours = (Date.parse(previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const read = await t.call('GET', `/integrations/webhooks/${ep.id}`, undefined, tenant);
    expect(read.text).not.toContain(secret.slice(6));

    await personCreated(tenant);
    const [during] = await r.waitFor(1);
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(secret, during)).toBeTruthy();
    expect(verify(ep.secret, during)).toBeTruthy();

    const now = await t.call(
      'POST',
      `/integrations/webhooks/${ep.id}/secret`,
      { overlapMinutes: 0 },
      tenant,
    );
    expect(now.body.data.previousSecretExpiresAt).toBeNull();
    await personCreated(tenant);
    const [, after] = await r.waitFor(2);
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verify(now.body.data.secret, after)).toBeTruthy();
    expect(() => verify(secret, after)).toThrow();
    expect(() => verify(ep.secret, after)).toThrow();

    for (const overlapMinutes of [-1, 10081, 'soon']) {
      const bad = await t.call(
        'POST',
        `/integrations/webhooks/${ep.id}/secret`,
        { overlapMinutes },
        tenant,
      );
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('overlapMinutes');
    }
  });
});

describe('GraphQL', () => {
  it('registers (secret in the answer), lists, reads the log; no secret field on reads', async () => {
    const tenant = `tenant-q-${randomUUID().slice(0, 8)}`;
    const reg = await t.gql(
      `mutation($input: RegisterWebhookEndpointInput!) {
        registerWebhookEndpoint(input: $input) { id secret eventTypes enabled }
      }`,
      { input: { url: 'http://127.0.0.1:9/gql', eventTypes: ['event.published'] } },
      tenant,
    );
    const created = reg.body.data.registerWebhookEndpoint;
    expect(created).toMatchObject({ eventTypes: ['event.published'], enabled: true });
    expect(created.secret).toMatch(/^whsec_/);

    const list = await t.gql(
      `query { webhookEndpoints(pageSize: 10) { totalResults items { id url } } }`,
      {},
      tenant,
    );
    expect(list.body.data.webhookEndpoints).toEqual({
      totalResults: 1,
      items: [{ id: created.id, url: 'http://127.0.0.1:9/gql' }],
    });
    const log = await t.gql(
      `query($id: ID!) { webhookDeliveries(endpointId: $id, status: "pending") { totalResults } }`,
      { id: created.id },
      tenant,
    );
    expect(log.body.data.webhookDeliveries.totalResults).toBe(0);

    const secretField = await t.gql(
      `query($id: ID!) { webhookEndpoint(id: $id) { id secret } }`,
      { id: created.id },
      tenant,
    );
    expect(secretField.body.errors?.length).toBeGreaterThan(0);

    const rotated = await t.gql(
      `mutation($id: ID!) { rotateWebhookSecret(endpointId: $id, input: { overlapMinutes: 5 }) { secret previousSecretExpiresAt } }`,
      { id: created.id },
      tenant,
    );
    expect(rotated.body.data.rotateWebhookSecret.secret).toMatch(/^whsec_/);

    const foreign = await t.gql(
      `query($id: ID!) { webhookEndpoint(id: $id) { id } }`,
      { id: created.id },
      t.B,
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });

    const invalid = await t.gql(
      `mutation($input: RegisterWebhookEndpointInput!) { registerWebhookEndpoint(input: $input) { id } }`,
      { input: { url: 'http://127.0.0.1:9/gql', eventTypes: [] } },
      tenant,
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [expect.objectContaining({ field: 'eventTypes' })],
    });

    const updated = await t.gql(
      `mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: { enabled: false }) { enabled disabledReason } }`,
      { id: created.id },
      tenant,
    );
    expect(updated.body.data.updateWebhookEndpoint).toEqual({
      enabled: false,
      disabledReason: 'Disabled by the owner',
    });
    const replayed = await t.gql(
      `mutation($id: ID!) { replayWebhookDeliveries(endpointId: $id, input: { since: "2020-01-01T00:00:00Z" }) { queued endpointEnabled } }`,
      { id: created.id },
      tenant,
    );
    expect(replayed.body.data.replayWebhookDeliveries).toEqual({
      queued: 0,
      endpointEnabled: false,
    });
    const redelivered = await t.gql(
      `mutation($id: ID!, $d: ID!) { redeliverWebhook(endpointId: $id, deliveryId: $d) { endpointEnabled } }`,
      { id: created.id, d: randomUUID() },
      tenant,
    );
    expect(redelivered.body.errors[0].extensions).toMatchObject({ statusCode: 404 });
    const removed = await t.gql(
      `mutation($id: ID!) { removeWebhookEndpoint(id: $id) { id } }`,
      { id: created.id },
      tenant,
    );
    expect(removed.body.data.removeWebhookEndpoint).toEqual({ id: created.id });
    const gone = await t.gql(
      `query($id: ID!) { webhookEndpoint(id: $id) { id } }`,
      { id: created.id },
      tenant,
    );
    expect(gone.body.errors[0].extensions).toMatchObject({ statusCode: 404 });
  });
});

describe('hostile input', () => {
  it('no body, query or id of any shape answers 5xx', async () => {
    const H = `tenant-hostile-${randomUUID().slice(0, 8)}`;
    const { id } = await register('http://127.0.0.1:9/hostile', ['person.created'], H);
    const bodies: unknown[] = [
      null,
      [],
      'text',
      7,
      {},
      { url: {}, eventTypes: 'person.created' },
      { url: ['http://127.0.0.1:9/'], eventTypes: [null, 1, {}] },
      { url: 'http://[::1', eventTypes: ['person.created'] },
      { url: `http://127.0.0.1:9/${'x'.repeat(5000)}`, eventTypes: ['person.created'] },
      { description: 'd'.repeat(501), enabled: null, eventTypes: Array(5000).fill('x') },
      { since: null, overlapMinutes: null },
      { since: '2026-02-30T00:00:00Z', overlapMinutes: 1e308 },
      { since: '+275760-09-13T00:00:00.000Z', overlapMinutes: 1.5 },
      JSON.parse('{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}'),
    ];
    const base = `/integrations/webhooks`;
    const routes: [string, string][] = [
      ['POST', base],
      ['PUT', `${base}/${id}`],
      ['POST', `${base}/${id}/replay`],
      ['POST', `${base}/${id}/secret`],
      ['POST', `${base}/${id}/deliveries/${randomUUID()}/redeliver`],
    ];
    for (const [method, path] of routes) {
      for (const body of bodies) {
        const res = await t.call(method, path, body, H);
        expect([method, path, body, res.status < 500]).toEqual([method, path, body, true]);
      }
    }
    for (const query of [
      '?page=-1',
      '?pageSize=100000',
      '?sort=secret',
      '?sort=-,,',
      '?status=lost',
      '?status[]=pending',
      '?page=99999999999999999999',
    ]) {
      for (const path of [base, `${base}/${id}/deliveries`]) {
        const res = await t.call('GET', `${path}${query}`, undefined, H);
        expect([path, query, res.status]).toEqual([path, query, 400]);
      }
    }
    for (const bad of ['%00', "1'--", 'a'.repeat(300), '00000000-0000-0000-0000-00000000000g']) {
      const res = await t.call('GET', `${base}/${bad}/deliveries`, undefined, H);
      // a NUL in the path is refused (400) before routing; any other id is not found
      expect([bad, res.status]).toEqual([bad, bad === '%00' ? 400 : 404]);
    }
  });
});

describe('lists (last: stops the worker)', () => {
  it('read a page of deliveries with their attempts, and of endpoints, in a fixed number of queries', async () => {
    await svc.app.get(WebhookWorker).onApplicationShutdown();
    const tenant = `tenant-n-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 3; i++)
      await register(`http://127.0.0.1:9/n${i}`, ['person.deleted'], tenant);
    const fanout = svc.app.get(WebhookFanout);
    const all = await asTenantDo(tenant, async () => {
      await db.$transaction(async (tx) => {
        for (let i = 0; i < 12; i++)
          await fanout.fanOut(tx, tenant, 'person.deleted', randomUUID(), {});
      });
      const theirs = await db.webhookDelivery.findMany({ where: { tenantId: tenant } });
      await db.webhookAttempt.createMany({
        data: theirs.flatMap((d) =>
          [500, 502].map((responseCode) => ({
            tenantId: tenant,
            deliveryId: d.id,
            responseCode,
            durationMs: 5,
          })),
        ),
      });
      return theirs;
    });
    const endpointId = all[0].endpointId;

    const spy = jest.spyOn(pg.Client.prototype, 'query');
    const statements = async (path: string) => {
      spy.mockClear();
      const res = await t.call('GET', path, undefined, tenant);
      expect(res.status).toBe(200);
      const n = spy.mock.calls.filter(([q]) =>
        /"Webhook/.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
      ).length;
      return [res.body.data.length, n];
    };
    try {
      const [one, oneQ] = await statements(
        `/integrations/webhooks/${endpointId}/deliveries?pageSize=1`,
      );
      const [many, manyQ] = await statements(
        `/integrations/webhooks/${endpointId}/deliveries?pageSize=12`,
      );
      expect([one, many]).toEqual([1, 12]);
      expect(manyQ).toBe(oneQ);
      expect(manyQ).toBeLessThanOrEqual(4);
      const [e1, e1Q] = await statements('/integrations/webhooks?pageSize=1');
      const [e3, e3Q] = await statements('/integrations/webhooks?pageSize=3');
      expect([e1, e3]).toEqual([1, 3]);
      expect(e3Q).toBe(e1Q);
    } finally {
      spy.mockRestore();
    }
    const page = await deliveries(endpointId, tenant);
    expect(page[0].attemptLog.map((a) => a.responseCode).sort()).toEqual([500, 502]);
  });
});
