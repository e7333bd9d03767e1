import { randomUUID } from 'node:crypto';
import { AppException } from '@crm/errors';
import { MessageBus, Subjects, TicketTypesSummaryReply } from '@crm/messaging';
import { TicketTestKit } from './test/ticket-test-kit';

// bookings-invitations.ticket-types.summary: what the events service asks before it publishes an
// event (E11, E12), answered by the real service from its own ticket types.

jest.setTimeout(60000);

let t: TicketTestKit;
beforeAll(async () => {
  t = await TicketTestKit.start('bookings_invitations_it_ticket_types_summary');
}, 60000);
afterAll(async () => t?.close());

// 10 s: the service's default timeout ran out for the file's first request on a loaded CI
// machine; the test is about what comes back
const ask = (payload: object) =>
  t.svc.app
    .get(MessageBus)
    .request<TicketTypesSummaryReply>(
      Subjects.bookingsInvitations.ticketTypesSummary,
      payload,
      10_000,
    );

const ticketType = async (eventId: string, over: Record<string, unknown> = {}) => {
  const res = await t.call('POST', '/tickets', {
    eventId,
    name: 'Standard',
    price: '10',
    currency: 'EUR',
    ...over,
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};

it('counts the event’s ticket types and the active ones, of the tenant asking only', async () => {
  const eventId = randomUUID();
  await t.snapshot(t.A, eventId);
  await t.snapshot(t.B, eventId);
  expect(await ask({ tenantId: t.A, eventId })).toEqual({ total: 0, active: 0 });

  const first = await ticketType(eventId);
  await ticketType(eventId, { name: 'VIP', active: false });
  expect(await ask({ tenantId: t.A, eventId: eventId.toUpperCase() })).toEqual({
    total: 2,
    active: 1,
  });
  expect(await ask({ tenantId: t.B, eventId })).toEqual({ total: 0, active: 0 });

  const off = await t.call('PUT', `/tickets/${first}`, { active: false });
  expect(off.status).toBe(200);
  expect(await ask({ tenantId: t.A, eventId })).toEqual({ total: 2, active: 0 });
});

it('refuses a malformed request with a validation error naming the field', async () => {
  const err = await ask({ tenantId: t.A, eventId: 'not-a-uuid' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppException);
  expect((err as AppException).problems[0]).toMatchObject({ field: 'eventId' });
});
