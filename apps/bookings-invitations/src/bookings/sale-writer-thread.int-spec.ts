import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { metricValue, tenantHeaders, TestAnswer } from '@crm/testing';
import { SaleWriterThread } from './sale-writer-thread';
import { BookingTestKit } from './test/booking-test-kit';

// The sale writer's thread (SaleWriterThread) ending in the middle of an on-sale, as a thread
// that crashes or runs out of memory would: the batches it had are answered 503 and never written
// a second time, another thread takes over, and a retry with the Idempotency-Key learns what
// became of each 503. Never oversold, counters equal to the tickets.

jest.setTimeout(180000);

let t: BookingTestKit;
beforeAll(async () => {
  t = await BookingTestKit.start('bookings_invitations_it_sale_writer_thread');
}, 60000);
afterAll(async () => t?.close());

/** The thread's private parts a fault needs: its worker and the batches it has not answered. */
const inside = () =>
  t.svc.app.get(SaleWriterThread) as unknown as {
    worker: Promise<Worker>;
    pending: Map<number, unknown>;
    stats: { restarts: number };
  };

it('a writer thread that ends mid-burst: its batches answer 503 and are not written twice, another thread sells on', async () => {
  const eventId = await t.event();
  const type = await t.ticketType(eventId, { price: '0', quota: 100 });
  const keys = Array.from({ length: 200 }, () => randomUUID());
  const book = (key: string): Promise<TestAnswer> =>
    t.api.rest(
      'POST',
      '/bookings/public',
      t.body(eventId, [{ ticketTypeId: type }]),
      tenantHeaders(t.A, { 'Idempotency-Key': key }),
    );
  const thread = inside();
  const restartsBefore = await metricValue(t.api.url, 'booking_sale_writer_restarts_total');
  // the whole burst in flight; the thread ends as soon as it has a batch to write
  const answers = keys.map(book);
  while (!thread.pending.size) await new Promise((r) => setImmediate(r));
  await (await thread.worker).terminate();
  const first = await Promise.all(answers);

  const statuses = new Set(first.map((a) => a.status));
  expect([...statuses].every((s) => [201, 409, 503].includes(s))).toBe(true);
  const unknown = keys.filter((_, i) => first[i].status === 503);
  expect(unknown.length).toBeGreaterThan(0);
  expect(await metricValue(t.api.url, 'booking_sale_writer_restarts_total')).toBe(
    restartsBefore + 1,
  );

  // The buyers who got a 503 ask again with their key: a booking that was written is answered
  // as it was, one that was not is written now (or refused: sold out).
  const again = await Promise.all(unknown.map(book));
  expect(again.every((a) => a.status === 201 || a.status === 409)).toBe(true);
  const booked = [...first, ...again].filter((a) => a.status === 201);
  const ids = booked.map((a) => a.body.data.id as string);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBeLessThanOrEqual(100);
  // every booking written is one a buyer holds an answer for: none written twice or unseen
  expect(await t.count('Booking', `"eventId" = $1::uuid`, [eventId])).toBe(ids.length);
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: ids.length }]);
  expect(await t.count('EventTicket', `"eventId" = $1::uuid AND status = 'valid'`, [eventId])).toBe(
    ids.length,
  );

  // the seats left are sold by the new thread
  const rest = await Promise.all(Array.from({ length: 120 }, () => book(randomUUID())));
  expect(rest.filter((a) => a.status === 201).length).toBe(100 - ids.length);
  expect(rest.every((a) => a.status === 201 || a.status === 409)).toBe(true);
  expect(await t.counters(eventId)).toEqual([{ id: type, sold: 100 }]);
});
