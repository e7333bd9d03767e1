import { metricValue, tenantHeaders, until } from '@crm/testing';
import { BookingTestKit } from '../bookings/test/booking-test-kit';
import { RunningService, startReplica } from '../test/service-harness';

// Seats freed while no replica sweeps (all down, or sweeping off): nothing is offered and the
// public still cannot take them (the list's), and the first replica that sweeps again offers
// them to the head of the list, once.

jest.setTimeout(120_000);

let t: BookingTestKit;
let sweeper: RunningService | null = null;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_waiting_list_restart', {
    env: { SALE_SWEEP_INTERVAL_MS: '0' },
  });
}, 60_000);
afterAll(async () => {
  await sweeper?.app.close();
  await t?.close();
});

const gauge = (name: string, labels = '') => metricValue(t.api.url, name, labels);

it('seats freed while nobody sweeps are offered by the next replica that starts', async () => {
  const eventId = await t.event();
  const type = await t.ticketType(eventId, { quota: 2, price: '0' });
  const sold = [
    await t.booked(eventId, [{ ticketTypeId: type }]),
    await t.booked(eventId, [{ ticketTypeId: type }]),
  ];
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await t.api.rest(
      'POST',
      `/bookings/public/events/${eventId}/waiting-list`,
      {
        ticketTypeId: type,
        quantity: 1,
        email: `r${i}@example.org`,
        firstname: 'R',
        lastname: 'S',
      },
      tenantHeaders(t.A),
    );
    expect(res.status).toBe(201);
    tokens.push(res.body.data.token);
  }
  for (const b of sold)
    expect((await t.call('POST', `/bookings/${b.id}/cancel`, { waiveFee: true })).status).toBe(200);
  await new Promise((r) => setTimeout(r, 1000));
  expect(await t.count('SeatHold', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  // the freed seats are the list's even before an offer is made
  expect((await t.book(eventId, [{ ticketTypeId: type }])).status).toBe(409);
  // what an operator sees meanwhile: three waiting, nothing offered (the file's only event)
  expect(await gauge('waiting_list_entries', 'status="waiting"')).toBe(3);
  expect(await gauge('waiting_list_entries', 'status="offered"')).toBe(0);

  sweeper = await startReplica(t.svc.databaseUrl, { SALE_SWEEP_INTERVAL_MS: '200' });
  const status = async (token: string) =>
    (
      await t.api.rest(
        'GET',
        `/bookings/public/waiting-list/${token}`,
        undefined,
        tenantHeaders(t.A),
      )
    ).body.data;
  await until(
    'two offers',
    () => t.count('SeatHold', `"eventId" = $1::uuid AND status = 'active'`, [eventId]),
    (n) => n === 2,
  );
  await new Promise((r) => setTimeout(r, 1000));
  expect((await status(tokens[0])).status).toBe('offered');
  expect((await status(tokens[1])).status).toBe('offered');
  expect(await status(tokens[2])).toMatchObject({ status: 'waiting', position: 1 });
  const [c] = await t.sql<{ sold: number; held: number }>(
    `SELECT sold, held FROM "TicketType" WHERE id = $1::uuid`,
    [type],
  );
  expect(c).toEqual({ sold: 0, held: 2 });
  expect(await gauge('waiting_list_entries', 'status="waiting"')).toBe(1);
  expect(await gauge('waiting_list_entries', 'status="offered"')).toBe(2);
  expect(await gauge('holds_open')).toBe(2);
  // the mail outbox's gauges are its table's: the worker is off here, so the offers' mails wait
  // queued with the bookings' and cancellations'
  const mails = (status: string) => t.count('Mail', `status = $1`, [status]);
  expect(await t.count('Mail', `kind = 'waiting-list-offer'`)).toBe(2);
  expect(await gauge('mails_pending')).toBe(await mails('queued'));
  expect(await gauge('mails_failed')).toBe(await mails('failed'));
});
