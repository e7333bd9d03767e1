// Scenario 4 of `npm run bench -- bookings`: an on-sale. ONSALE_CLIENTS (200) buyers book one
// paid ticket each (booker and participant, so an invoice number is drawn) of ONE ticket type
// with ONSALE_SEATS (6000) seats, straight at bookings-invitations, until it is sold out. Printed:
// bookings/s, the buyers' p50/p99, beside the same sale in plain SQL by the design the service
// uses (raw/onsale.mjs batch-writer: one writer per event committing micro-batches), and
// checked exact: seats sold = quota = bookings = valid tickets, invoice numbers 1..N, no 5xx.
// Goal (issue 19): at least 1,000 bookings/s with p99 at most 500 ms. The same sale with every
// app and worker of `npm start` running beside it, its mails, webhooks and touchpoints drained,
// spread over tenants, events and replicas: `npm run bench -- onsale` (onsale-stack.mjs).
import { Agent, request } from 'undici';
import { problems } from './measure.mjs';
import { measureDesign } from './raw/onsale.mjs';

const SEATS = Number(process.env.ONSALE_SEATS ?? 6000);
const CLIENTS = Number(process.env.ONSALE_CLIENTS ?? 200);
const SCENARIO = '4 on-sale: one hot ticket type, 1 paid ticket per booking, sold out';

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** sold, seconds, p50 and p99 of the 201s, and the answers by status. */
function figures(latencies, statuses, seconds) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    sold: sorted.length,
    seconds,
    p50: percentile(sorted, 0.5) ?? NaN,
    p99: percentile(sorted, 0.99) ?? NaN,
    statuses,
  };
}

/**
 * Buyers booking one paid ticket each (booker and participant, answers to the bench form) until
 * the first sold-out answer (409) of their event. `targets`: `{ url, headers, eventId, typeId,
 * clients }` each (several targets may sell the same event, e.g. through two replicas). Answers
 * the figures of each target (`perTarget`, in order, its seconds until its last buyer stopped)
 * and of all together.
 */
export async function sell(targets) {
  const clients = targets.reduce((n, t) => n + t.clients, 0);
  const dispatcher = new Agent({ connections: clients, pipelining: 1 });
  const soldOut = new Set();
  const all = { latencies: [], statuses: {} };
  let next = 0;
  const started = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - started) / 1e9;
  const perTarget = await Promise.all(
    targets.map(async (t) => {
      const latencies = [];
      const statuses = {};
      await Promise.all(
        Array.from({ length: t.clients }, async () => {
          while (!soldOut.has(t.eventId)) {
            const i = next++;
            const t0 = process.hrtime.bigint();
            // undici's request, not fetch: the buyers share the 2 cores with the stack, and
            // fetch's Response and streams cost them about twice the CPU per booking
            const res = await request(`${t.url}/v1/crm/bookings/public`, {
              method: 'POST',
              dispatcher,
              headers: { ...t.headers, 'content-type': 'application/json' },
              body: JSON.stringify({
                eventId: t.eventId,
                booker: {
                  firstname: 'Ada',
                  lastname: `Buyer ${i}`,
                  email: `buyer${i}@example.org`,
                },
                tickets: [
                  {
                    ticketTypeId: t.typeId,
                    participant: {
                      firstname: 'Ada',
                      lastname: `Buyer ${i}`,
                      email: `b${i}@example.org`,
                    },
                  },
                ],
                answers: { company: 'ACME', diet: 'vegan', newsletter: i % 2 === 0 },
              }),
            });
            await res.body.dump();
            const status = res.statusCode;
            for (const s of [statuses, all.statuses]) s[status] = (s[status] ?? 0) + 1;
            if (status === 201) {
              const ms = Number(process.hrtime.bigint() - t0) / 1e6;
              latencies.push(ms);
              all.latencies.push(ms);
            } else if (status === 409) soldOut.add(t.eventId);
          }
        }),
      );
      return figures(latencies, statuses, since());
    }),
  );
  const seconds = since();
  await dispatcher.close();
  return { ...figures(all.latencies, all.statuses, seconds), perTarget };
}

export async function onSaleScenario(ctx) {
  const eventId = await ctx.seedEvent(ctx.pool, ctx.tenantId);
  const [typeId] = await ctx.seedTypes(ctx.pool, ctx.tenantId, eventId, 1, 'On sale');
  await ctx.pool.query(`UPDATE "TicketType" SET quota = $2 WHERE id = $1`, [typeId, SEATS]);
  const { rows: before } = await ctx.pool.query(
    `SELECT coalesce(max(last), 0)::int AS last FROM "InvoiceCounter" WHERE "tenantId" = $1`,
    [ctx.tenantId],
  );
  const service = await sell([
    { url: ctx.url, headers: ctx.headers, eventId, typeId, clients: CLIENTS },
  ]);
  const { rows } = await ctx.pool.query(
    `SELECT (SELECT sold FROM "TicketType" WHERE id = $1) AS sold,
            (SELECT count(*)::int FROM "Booking" WHERE "eventId" = $2) AS bookings,
            (SELECT count(*)::int FROM "EventTicket" WHERE "ticketTypeId" = $1 AND status = 'valid') AS tickets,
            (SELECT count(DISTINCT "invoiceNumber")::int FROM "Booking" WHERE "eventId" = $2) AS numbers,
            (SELECT last FROM "InvoiceCounter" WHERE "tenantId" = $3 ORDER BY year DESC LIMIT 1) AS last`,
    [typeId, eventId, ctx.tenantId],
  );
  const r = rows[0];
  const fivexx = Object.entries(service.statuses)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, c]) => n + c, 0);
  const exact =
    r.sold === SEATS &&
    r.bookings === SEATS &&
    r.tickets === SEATS &&
    r.numbers === SEATS &&
    r.last - before[0].last === SEATS &&
    service.sold === SEATS &&
    fivexx === 0;
  if (!exact)
    problems.push(
      `${SCENARIO}: not exact: ${JSON.stringify({ ...r, answers: service.statuses, seats: SEATS })}`,
    );
  const raw = await measureDesign('batch-writer');
  const rate = (x) => `${Math.round(x.sold / x.seconds)} bookings/s`;
  console.log(
    `bench bookings: ${SCENARIO}: service ${rate(service)} (p50 ${service.p50.toFixed(0)} ms, ` +
      `p99 ${service.p99.toFixed(0)} ms, ${service.sold} sold in ${service.seconds.toFixed(1)} s, ` +
      `answers ${JSON.stringify(service.statuses)}${exact ? ', exact' : ''}); raw batch writer ` +
      `${rate(raw)} (p50 ${raw.p50.toFixed(0)} ms, p99 ${raw.p99.toFixed(0)} ms)`,
  );
  const perSecond = (m) => Math.round(m.sold / m.seconds);
  const met = perSecond(service) >= 1000 && service.p99 <= 500;
  console.log(
    `bench bookings: on-sale goal (>= 1,000 bookings/s, p99 <= 500 ms): ${met ? 'met' : 'NOT met'}`,
  );
  const asRow = (target, m, base) => ({
    scenario: SCENARIO,
    target,
    reqPerSec: perSecond(m),
    p50: Math.round(m.p50),
    p99: Math.round(m.p99),
    ratio: base ? perSecond(m) / perSecond(base) : null,
    ratioError: null,
    goal: null,
    failed: !exact && !base ? false : !exact,
  });
  return [
    asRow('raw batch writer (plain SQL)', raw, null),
    asRow(`bookings-invitations, ${CLIENTS} buyers`, service, raw),
  ];
}
