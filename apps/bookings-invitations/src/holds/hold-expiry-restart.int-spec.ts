import { startReplica, RunningService } from '../test/service-harness';
import { tenantHeaders } from '@crm/testing';
import { BookingTestKit } from '../bookings/test/booking-test-kit';

// Holds that expire while no replica sweeps (all down, or sweeping off): they stay counted and
// refuse their booking (holdExpired, judged by the database's clock), and the first replica that
// sweeps again puts every one of them back on sale, exactly once.

jest.setTimeout(120000);

let t: BookingTestKit;
let sweeper: RunningService | null = null;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_hold_expiry_restart', {
    env: { SALE_SWEEP_INTERVAL_MS: '0' },
  });
}, 60000);
afterAll(async () => {
  await sweeper?.app.close();
  await t?.close();
});

it('holds expired during a restart are swept by the next replica that starts', async () => {
  const eventId = await t.event();
  const type = await t.ticketType(eventId, { quota: 30 });
  const tokens: string[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await t.api.rest(
      'POST',
      '/bookings/public/holds',
      { eventId, tickets: [{ ticketTypeId: type, count: 1 }] },
      tenantHeaders(t.A),
    );
    tokens.push(res.body.data.token);
  }
  await t.sql(
    `UPDATE "SeatHold" SET "expiresAt" = "expiresAt" - interval '1 hour' WHERE "eventId" = $1::uuid`,
    [eventId],
  );
  // nobody sweeps: the seats stay held, and an expired hold books nothing
  const late = await t.book(eventId, [{ ticketTypeId: type }], { holdToken: tokens[0] });
  expect(late.status).toBe(409);
  expect(late.body.errors).toEqual([
    expect.objectContaining({ field: 'holdToken', rule: 'holdExpired' }),
  ]);
  expect((await t.book(eventId, [{ ticketTypeId: type }])).status).toBe(409);

  sweeper = await startReplica(t.svc.databaseUrl, { SALE_SWEEP_INTERVAL_MS: '200' });
  const end = Date.now() + 30000;
  while ((await t.count('SeatHold', `"eventId" = $1::uuid AND status = 'active'`, [eventId])) > 0) {
    if (Date.now() > end) throw new Error('holds not swept');
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await t.count('SeatHold', `"eventId" = $1::uuid AND status = 'expired'`, [eventId])).toBe(
    30,
  );
  const [c] = await t.sql<{ sold: number; held: number }>(
    `SELECT sold, held FROM "TicketType" WHERE id = $1::uuid`,
    [type],
  );
  expect(c).toEqual({ sold: 0, held: 0 });
  const [e] = await t.sql<{ held: number }>(
    `SELECT held FROM "EventCopy" WHERE "eventId" = $1::uuid`,
    [eventId],
  );
  expect(e.held).toBe(0);
  expect((await t.book(eventId, [{ ticketTypeId: type, n: 30 }])).status).toBe(201);
});
