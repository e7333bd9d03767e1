import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { AppException } from '@crm/errors';
import { EventsExistReply, MessageBus, Subjects } from '@crm/messaging';
import { freePort, natsServer, NatsProcess } from '@crm/testing';
import { EventsRepository } from './events.repository';
import { EventTestKit } from './test/event-test-kit';

// events.events.exist, the question bookings-invitations asks before its copy of an event has
// arrived, answered by the real events service. On a nats-server of its own, so no other events
// instance on the shared NATS answers in its place.

jest.setTimeout(60000);

let t: EventTestKit;
let nats: NatsProcess;
let store: string;
beforeAll(async () => {
  store = await mkdtemp(path.join(tmpdir(), 'ev-nats-'));
  nats = await natsServer(await freePort(), store);
  t = await EventTestKit.start('events_it_events_exist', { NATS_URL: nats.url });
}, 60000);
afterAll(async () => {
  await t?.close();
  await nats?.stop();
  await rm(store, { recursive: true, force: true });
});

const ask = (payload: object) =>
  t.svc.app.get(MessageBus).request<EventsExistReply>(Subjects.events.eventsExist, payload);

it('names the ids that are not events of the tenant, in the order asked, with one query', async () => {
  const mine = (await t.event({ title: 'Mine', timeZone: 'Europe/Berlin' })).id;
  const theirs = (await t.event({ title: 'Theirs', timeZone: 'Europe/Berlin' }, t.B)).id;
  const unknown = randomUUID();
  const spy = jest.spyOn(t.svc.app.get(EventsRepository), 'existing');
  expect(
    await ask({ tenantId: t.A, eventIds: [theirs, mine, unknown, mine.toUpperCase()] }),
  ).toEqual({ missingEventIds: [theirs, unknown] });
  expect(spy).toHaveBeenCalledTimes(1);
  spy.mockRestore();
  expect(await ask({ tenantId: t.B, eventIds: [theirs] })).toEqual({ missingEventIds: [] });
});

it('refuses a malformed request with a validation error naming the field', async () => {
  const err = await ask({ tenantId: t.A, eventIds: ['not-a-uuid'] }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppException);
  expect((err as AppException).problems[0]).toMatchObject({ field: 'eventIds' });
});
