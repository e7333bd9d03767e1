import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppException } from '@crm/errors';
import { InvoiceSenderReply, MessageBus, Subjects } from '@crm/messaging';
import { freePort, natsServer, NatsProcess } from '@crm/testing';
import { EventTestKit } from '../events/test/event-test-kit';

// events.event-settings.invoice-sender, asked by bookings-invitations for an invoice PDF,
// answered by the real events service from the tenant's settings. On a nats-server of its own.

jest.setTimeout(60000);

let t: EventTestKit;
let nats: NatsProcess;
let store: string;
beforeAll(async () => {
  store = await mkdtemp(path.join(tmpdir(), 'ev-nats-'));
  nats = await natsServer(await freePort(), store);
  t = await EventTestKit.start('events_it_invoice_sender', { NATS_URL: nats.url });
}, 60000);
afterAll(async () => {
  await t?.close();
  await nats?.stop();
  await rm(store, { recursive: true, force: true });
});

const ask = (payload: object) =>
  t.svc.app.get(MessageBus).request<InvoiceSenderReply>(Subjects.events.invoiceSender, payload);

it('answers the filled fields of the tenant’s invoice sender, its currency and time zone', async () => {
  const put = await t.call('PUT', '/event-settings', {
    timeZone: 'Europe/Zurich',
    currency: 'CHF',
    invoiceSender: { name: 'Events AG', city: 'Zürich', country: 'ch', vatId: 'CHE-123.456.789' },
  });
  expect(put.status).toBe(200);
  expect(await ask({ tenantId: t.A })).toEqual({
    sender: { name: 'Events AG', city: 'Zürich', country: 'CH', vatId: 'CHE-123.456.789' },
    currency: 'CHF',
    timeZone: 'Europe/Zurich',
  });
});

it('answers null as sender and the defaults for a tenant without settings (not another’s)', async () => {
  expect(await ask({ tenantId: t.B })).toEqual({
    sender: null,
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
  });
});

it('refuses a request without a tenant with a validation error naming the field', async () => {
  const err = await ask({}).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppException);
  expect((err as AppException).problems[0]).toMatchObject({ field: 'tenantId' });
});
