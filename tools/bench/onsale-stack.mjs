// npm run bench -- onsale: the on-sale of issue 19 on the whole stack. tenant-info, crm-people,
// crm-companies, events, bookings-invitations (with its mail worker, outbox relay and consumers)
// and the gateway run as under `npm start`, on databases of their own and a nats-server of their
// own (stack.mjs), with a local SMTP sink (smtp-server) the mail worker really sends to and a local
// HTTP receiver that a webhook endpoint for `booking.created` of every tenant points at.
//
// Every event is made the way a tenant makes it, through the gateway with the tenant's API key:
// a booking form field set (events), the event (events: E3, copied to bookings-invitations by its
// consumer of events.events.changed), one paid ticket type with the quota (bookings-invitations:
// K1), the publication (events: E11, which asks bookings-invitations for the active ticket types).
// The buyers then book straight at bookings-invitations' public booking endpoint (BK1 public, as
// the gateway forwards it), one paid ticket each (booker and participant, answers to the form, so
// an invoice number is drawn) until the event is sold out. Phases (ONSALE_ONLY=1,3 picks some):
//   1 one hot ticket type, ONSALE_CLIENTS (200) buyers, ONSALE_SEATS (6000) seats: bookings/s,
//     p50, p99 (goal: >= 1,000 bookings/s, p99 <= 500 ms);
//   2 the same seats spread over 10 tenants (each its own event and ticket type), the same
//     buyers spread over them: hot / spread (goal >= 0.8);
//   4 two events of the one tenant on sale at once, the buyers split: bookings/s of each and of
//     both beside phase 1's one event;
//   3 (last: it starts a second replica) two replicas of bookings-invitations' API (same
//     database, other port; the mail worker stays one process) selling one event, the buyers
//     split: two / one (goal >= 1).
// After each burst the bench polls (no fixed sleep) until every mail of the phase's bookings has
// reached the SMTP sink, every booking has had its booking.created webhook (by webhook-id), and
// crm-people has consumed every bookings.created (its touchpoint consumer), and prints how long
// after the burst each backlog took to drain. Then it checks the sale exact: seats sold = quota =
// bookings = valid tickets, every tenant's invoice numbers 1..N without gap or repeat, no 5xx.
// Last, the same sale in plain SQL by the service's design (raw/onsale.mjs batch-writer) is
// printed beside it.
// Before phase 1 and again before phase 3 (with both replicas), a small sale of ONSALE_WARMUP
// seats (a tenth of the seats, at least 100) warms the processes up; it is printed, not counted.
// The databases are analysed after each warm-up (ONSALE_ANALYZE=0: not), as a database in use
// has statistics. Settings: ONSALE_SEATS, ONSALE_CLIENTS, ONSALE_ONLY, ONSALE_WARMUP, ONSALE_ANALYZE,
// ONSALE_DRAIN_TIMEOUT_S (900),
// BENCH_DATABASE_SERVER, NATS_URL (else a nats-server of its own). A server with autovacuum off
// is swapped for an embedded PostgreSQL (onServerWithAutovacuum in stack.mjs);
// ONSALE_DATABASE=server keeps it.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { sell } from './bookings-onsale.mjs';
import { cpuSnapshot, cpuUse, formatCpuUse } from './cpu-use.mjs';
import { FORM } from './bookings.mjs';
import { freePort, printTable, problems } from './measure.mjs';
import { measureDesign } from './raw/onsale.mjs';
import {
  analyzeDatabases,
  apiClient,
  benchDbName,
  benchServer,
  metricsText,
  recreateDatabase,
  onServerWithAutovacuum,
  startApp,
  startBenchStack,
  sumSamples,
} from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEATS = Number(process.env.ONSALE_SEATS ?? 6000);
const CLIENTS = Number(process.env.ONSALE_CLIENTS ?? 200);
const TENANTS = 10;
const DRAIN_TIMEOUT_MS = Number(process.env.ONSALE_DRAIN_TIMEOUT_S ?? 900) * 1000;
const ONLY = process.env.ONSALE_ONLY?.split(',').map(Number);
/** Seats of the unmeasured sale before the phases and before phase 3 (ONSALE_WARMUP=0: none). */
const WARM_UP = Number(process.env.ONSALE_WARMUP ?? Math.max(100, Math.round(SEATS / 10)));
/** ANALYZE the databases after each warm-up (analyzeDatabases); 0: a fresh database's missing statistics. */
const ANALYZE = process.env.ONSALE_ANALYZE !== '0';
const STREAM = 'CRM_EVENTS';
/** crm-people's durable consumer of bookings.created (its touchpoints of visitor activities). */
const TOUCHPOINT_DURABLE = 'crm-people__bookings-invitations_bookings_created';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rate = (m) => Math.round(m.sold / m.seconds);

/** An SMTP server accepting every mail, counting them by the worker's X-Crm-Mail-Id. */
async function startMailSink() {
  const ids = new Set();
  let received = 0;
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      let complete = false;
      stream.on('data', (chunk) => {
        if (complete) return;
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end >= 0 || head.length > 65536) {
          complete = true;
          if (end >= 0) head = head.slice(0, end);
        }
      });
      stream.on('end', () => {
        received++;
        const id = /^x-crm-mail-id:\s*(\S+)/im.exec(head)?.[1];
        if (id) ids.add(id.toLowerCase());
        callback();
      });
    },
  });
  smtp.on('error', () => undefined);
  const port = await freePort();
  await new Promise((r) => smtp.server.listen(port, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${port}`,
    ids,
    get received() {
      return received;
    },
    stop: () => new Promise((r) => smtp.close(r)),
  };
}

/** A webhook receiver answering 204, counting deliveries, webhook-ids and booked ids. */
async function startWebhookReceiver() {
  const ids = new Set();
  const bookings = new Set();
  let deliveries = 0;
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries++;
      ids.add(req.headers['webhook-id']);
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.type === 'booking.created') bookings.add(body.data.bookingId);
      } catch {
        /* counted as a delivery, not as a booking */
      }
      res.writeHead(204).end();
    });
  });
  const port = await freePort();
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    ids,
    bookings,
    get deliveries() {
      return deliveries;
    },
    stop: () =>
      new Promise((r) => {
        srv.closeAllConnections();
        srv.close(r);
      }),
  };
}

/** Polls `check` every 100 ms until it answers true; throws after `ms`. */
async function until(what, check, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not after ${ms / 1000} s`);
    await sleep(100);
  }
}

/**
 * A tenant as a customer sets it up, through the gateway with its key: the bench booking form as
 * a field set, a website to publish on, and a webhook endpoint for booking.created at the
 * receiver.
 */
async function setUpTenant(ctx, tenant) {
  const api = apiClient(ctx.stack.gatewayUrl, tenant.gatewayHeaders);
  const set = await api('POST', '/v1/crm/event-settings/booking-form-field-sets', {
    text: 'Bench form',
    data: { fields: FORM },
  });
  const website = await api('POST', '/v1/crm/websites', {
    name: 'Bench portal',
    url: `https://${tenant.tenantId}.example.com/`,
    language: 'de',
  });
  await api('POST', '/v1/crm/integrations/webhooks', {
    url: ctx.receiver.url,
    eventTypes: ['booking.created'],
  });
  return {
    ...tenant,
    api,
    websiteId: website.id,
    formSetId: (Array.isArray(set) ? set[0] : set).id,
  };
}

/**
 * An event on sale: created in events, copied to bookings-invitations, one ticket type with
 * `quota` seats, published. Waits until bookings-invitations' copy is published.
 */
async function eventOnSale(ctx, tenant, quota, title) {
  const start = new Date(Date.now() + 365 * 86400_000);
  const event = await tenant.api('POST', '/v1/crm/events', {
    title,
    startsAt: start.toISOString().replace(/\.\d+Z$/, 'Z'),
    endsAt: new Date(start.getTime() + 8 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    timeZone: 'Europe/Berlin',
    venue: { name: 'Hall 1', city: 'Berlin', country: 'DE' },
    bookingFormFieldSetId: tenant.formSetId,
    taxRateId: 'de-standard',
    status: 'scheduled',
  });
  const copy = () =>
    ctx.bookingsPool
      .query(`SELECT published FROM "EventCopy" WHERE "eventId" = $1`, [event.id])
      .then((r) => r.rows[0]);
  await until(`the copy of event ${event.id}`, async () => Boolean(await copy()));
  const type = await tenant.api('POST', '/v1/crm/tickets', {
    eventId: event.id,
    name: `${title} ticket`,
    price: '119.00',
    currency: 'EUR',
    quota,
  });
  await tenant.api('PUT', `/v1/crm/events/${event.id}/publication`, {
    published: true,
    websiteIds: [tenant.websiteId],
  });
  await until(`the published copy of ${event.id}`, async () => (await copy())?.published);
  return { tenant, eventId: event.id, typeId: type.id, quota };
}

/** What a buyer of `sale` sends to bookings-invitations at `url` (the gateway's headers). */
const target = (ctx, sale, url, clients) => ({
  url,
  clients,
  eventId: sale.eventId,
  typeId: sale.typeId,
  headers: { ...sale.tenant.headers, 'x-internal-token': ctx.stack.internalToken },
});

const WRITER_METRICS = [
  'booking_sale_batches_total',
  'booking_sale_batch_requests_total',
  'booking_sale_write_seconds_total',
];

/** Each replica's sale writer counters (SaleMetrics), read from its /metrics: `[url, [b, r, s]]`. */
const writerCounters = (ctx, urls) =>
  Promise.all(
    [...new Set(urls)].map(async (url) => {
      const text = await metricsText(url, ctx.stack.internalToken);
      return [url, WRITER_METRICS.map((m) => sumSamples(text, [m]))];
    }),
  );

/**
 * What each replica's writer did in the burst: its batches, their mean size, and the share of
 * the burst it spent writing (near 100 %: the writer, not the buyers, set the pace).
 */
function writerUse(before, after, seconds) {
  return after
    .map(([url, [b, r, s]], i) => {
      const [b0, r0, s0] = before[i][1];
      if (b === b0) return null;
      const batches = b - b0;
      return (
        `${after.length > 1 ? `${url}: ` : ''}${batches} batches, ${((r - r0) / batches).toFixed(1)} ` +
        `per batch, writing ${Math.round(((s - s0) / seconds) * 100)} % of the burst`
      );
    })
    .filter(Boolean)
    .join('; ');
}

/** `n` split into `parts` whole numbers as equal as can be. */
const split = (n, parts) =>
  Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));

/**
 * Waits until the backlogs of the phase's bookings are drained; answers when each drained
 * (seconds after `burstEnded`) and what was counted.
 */
async function drain(ctx, bookingIds, burstEnded) {
  const drained = {};
  const counts = {};
  const at = () => (Date.now() - burstEnded) / 1000;
  const end = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    if (!drained.mails) {
      const { rows } = await ctx.bookingsPool.query(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE status = 'queued')::int AS queued,
                count(*) FILTER (WHERE status = 'failed')::int AS failed,
                count(*) FILTER (WHERE kind = 'booking-confirmation')::int AS confirmations,
                coalesce(array_agg(id::text) FILTER (WHERE status = 'sent'), '{}') AS sent
           FROM "Mail" WHERE "bookingId" = ANY($1::uuid[])`,
        [bookingIds],
      );
      const m = rows[0];
      const arrived = m.sent.filter((id) => ctx.sink.ids.has(id)).length;
      counts.mails = { ...m, sent: m.sent.length, arrived };
      if (!m.queued && arrived === m.total) drained.mails = at();
    }
    if (!drained.webhooks) {
      const arrived = bookingIds.filter((id) => ctx.receiver.bookings.has(id)).length;
      counts.webhooks = { arrived };
      if (arrived === bookingIds.length) drained.webhooks = at();
    }
    if (!drained.touchpoints) {
      const { rows } = await ctx.bookingsPool.query(
        `SELECT count(*)::int AS n FROM "OutboxEvent" WHERE "publishedAt" IS NULL`,
      );
      const info = await ctx.jsm.consumers.info(STREAM, TOUCHPOINT_DURABLE);
      counts.touchpoints = {
        unpublished: rows[0].n,
        pending: info.num_pending,
        ackPending: info.num_ack_pending,
      };
      if (!rows[0].n && !info.num_pending && !info.num_ack_pending) drained.touchpoints = at();
    }
    if (drained.mails && drained.webhooks && drained.touchpoints) break;
    if (Date.now() > end) {
      problems.push(`backlog not drained after ${at()} s: ${JSON.stringify(counts)}`);
      break;
    }
    // 100 ms at first, then a fiftieth of the time so far (at most 1 s): a poll reads every
    // mail of the phase, and 10 a second took a fifth of a core from the drain it measured
    await sleep(Math.min(1000, Math.max(100, (Date.now() - burstEnded) / 50)));
  }
  const { rows } = await ctx.peoplePool.query(
    `SELECT count(*)::int AS n FROM "Touchpoint" WHERE type = 'event-booking'`,
  );
  counts.touchpoints.written = rows[0].n;
  return { drained, counts };
}

/** Seats sold = quota = bookings = valid tickets of each sale; each tenant's invoice numbers. */
async function exactness(ctx, sales, service) {
  const wrong = [];
  for (const s of sales) {
    const { rows } = await ctx.bookingsPool.query(
      `SELECT (SELECT sold FROM "TicketType" WHERE id = $1) AS sold,
              (SELECT count(*)::int FROM "Booking" WHERE "eventId" = $2) AS bookings,
              (SELECT count(*)::int FROM "EventTicket"
                WHERE "ticketTypeId" = $1 AND status = 'valid') AS tickets,
              (SELECT count(*)::int FROM "Booking" b WHERE b."eventId" = $2 AND NOT EXISTS
                 (SELECT 1 FROM "EventTicket" t WHERE t."bookingId" = b.id AND t.status = 'valid'))
                AS "withoutTicket"`,
      [s.typeId, s.eventId],
    );
    const r = rows[0];
    if (
      r.sold !== s.quota ||
      r.bookings !== s.quota ||
      r.tickets !== s.quota ||
      r.withoutTicket !== 0
    )
      wrong.push(`event ${s.eventId}: ${JSON.stringify({ ...r, quota: s.quota })}`);
  }
  for (const tenantId of new Set(sales.map((s) => s.tenant.tenantId))) {
    const { rows } = await ctx.bookingsPool.query(
      `SELECT count(*)::int AS n, count(DISTINCT "invoiceNumber")::int AS "distinct",
              coalesce(max(split_part("invoiceNumber", '-', 2)::int), 0) AS last,
              coalesce(min(split_part("invoiceNumber", '-', 2)::int), 0) AS first,
              (SELECT coalesce(sum(last), 0)::int FROM "InvoiceCounter" WHERE "tenantId" = $1)
                AS counter,
              count(*) FILTER (WHERE "invoiceNumber" IS NULL)::int AS "withoutNumber"
         FROM "Booking" WHERE "tenantId" = $1`,
      [tenantId],
    );
    const r = rows[0];
    if (
      r.withoutNumber ||
      r.n !== r.distinct ||
      r.n !== r.last ||
      r.n !== r.counter ||
      (r.n && r.first !== 1)
    )
      wrong.push(`invoice numbers of ${tenantId} not 1..N: ${JSON.stringify(r)}`);
  }
  const fivexx = Object.entries(service.statuses)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, c]) => n + c, 0);
  if (fivexx) wrong.push(`${fivexx} answers 5xx`);
  const seats = sales.reduce((n, s) => n + s.quota, 0);
  if (service.sold !== seats) wrong.push(`${service.sold} bookings answered 201 of ${seats} seats`);
  return wrong;
}

/** Sells `targets` (of `sales`), waits for the backlogs, checks; prints and answers the figures. */
async function phase(ctx, name, sales, targets) {
  const before = {
    mails: ctx.sink.received,
    mailIds: ctx.sink.ids.size,
    deliveries: ctx.receiver.deliveries,
    webhookIds: ctx.receiver.ids.size,
  };
  const urls = targets.map((t) => t.url);
  const writersBefore = await writerCounters(ctx, urls);
  const cpuBefore = cpuSnapshot();
  const service = await sell(targets);
  const cpu = formatCpuUse(cpuUse(cpuBefore, cpuSnapshot()));
  const writers = writerUse(writersBefore, await writerCounters(ctx, urls), service.seconds);
  const burstEnded = Date.now();
  const { rows } = await ctx.bookingsPool.query(
    `SELECT id::text FROM "Booking" WHERE "eventId" = ANY($1::uuid[])`,
    [sales.map((s) => s.eventId)],
  );
  const bookingIds = rows.map((r) => r.id);
  const { drained, counts } = await drain(ctx, bookingIds, burstEnded);
  const wrong = await exactness(ctx, sales, service);
  if (counts.mails.confirmations !== bookingIds.length || counts.mails.failed)
    wrong.push(`mails: ${JSON.stringify(counts.mails)} for ${bookingIds.length} bookings`);
  const webhookIds = ctx.receiver.ids.size - before.webhookIds;
  if (webhookIds !== bookingIds.length)
    wrong.push(`${webhookIds} webhook-ids for ${bookingIds.length} bookings`);
  for (const w of wrong) problems.push(`${name}: not exact: ${w}`);
  const exact = !wrong.length;
  const s = (x) => (x == null ? 'NOT drained' : `drained ${x.toFixed(1)} s after the burst`);
  console.log(
    `bench onsale: ${name}: ${rate(service)} bookings/s (p50 ${service.p50.toFixed(0)} ms, ` +
      `p99 ${service.p99.toFixed(0)} ms, ${service.sold} sold in ${service.seconds.toFixed(1)} s, ` +
      `answers ${JSON.stringify(service.statuses)}${exact ? ', exact' : ', NOT exact'})`,
  );
  if (cpu) console.log(`bench onsale:   CPU during the burst: ${cpu}`);
  if (writers) console.log(`bench onsale:   sale writer: ${writers}`);
  const mails = ctx.sink.received - before.mails;
  const mailIds = ctx.sink.ids.size - before.mailIds;
  console.log(
    `bench onsale:   mails: ${counts.mails.total} queued for ${bookingIds.length} bookings ` +
      `(${counts.mails.confirmations} confirmations), ${counts.mails.arrived} of them at the SMTP ` +
      `sink (${mails} received, ${mails - mailIds} repeats), ${counts.mails.failed} failed, ` +
      `${s(drained.mails)}`,
  );
  const deliveries = ctx.receiver.deliveries - before.deliveries;
  console.log(
    `bench onsale:   webhooks: booking.created of ${counts.webhooks.arrived} bookings received ` +
      `(${deliveries} deliveries, ${webhookIds} webhook-ids, ${deliveries - webhookIds} repeats), ` +
      `${s(drained.webhooks)}`,
  );
  console.log(
    `bench onsale:   touchpoints: every bookings.created consumed by crm-people, ` +
      `${s(drained.touchpoints)}; ${counts.touchpoints.written} touchpoints written in all ` +
      `(a public booking names no person: crm-people records none for it)`,
  );
  if (service.perTarget.length > 1)
    console.log(
      `bench onsale:   per target: ${service.perTarget
        .map((m, i) => `${targets[i].label} ${rate(m)} bookings/s (p99 ${m.p99.toFixed(0)} ms)`)
        .join(', ')}`,
    );
  return { ...service, exact, drained };
}

/**
 * A small on-sale through `urls` (the replicas) before a measured one, waited for like a phase
 * and checked, not counted: the first sale of a fresh process runs before its JIT and pools are
 * warm, which would count against whichever phase comes first.
 */
async function warmUp(ctx, urls) {
  if (!WARM_UP) return;
  const sale = await eventOnSale(ctx, ctx.tenants[0], WARM_UP, 'Warm-up');
  const clients = split(CLIENTS, urls.length);
  const targets = urls.map((u, i) => ({
    ...target(ctx, sale, u, clients[i]),
    label: `replica ${i + 1}`,
  }));
  await phase(ctx, `warm-up, ${WARM_UP} seats, not counted`, [sale], targets);
  if (ANALYZE) {
    await analyzeDatabases(ctx.databases);
    console.log('bench onsale:   the databases analysed after the warm-up (ONSALE_ANALYZE=0: not)');
  }
}

const tableRow = (scenario, target, m, base, goal) => ({
  scenario,
  target,
  reqPerSec: rate(m),
  p50: Math.round(m.p50),
  p99: Math.round(m.p99),
  ratio: base ? rate(m) / rate(base) : null,
  ratioError: null,
  goal: base ? goal : null,
  failed: !m.exact || Boolean(base && !base.exact),
});

async function phases(ctx) {
  const run = (n) => !ONLY || ONLY.includes(n);
  const rows = [];
  const main = ctx.tenants[0];
  const url = ctx.stack.bookingsUrl;
  let hot;
  await warmUp(ctx, [url]);
  if (run(1)) {
    const sale = await eventOnSale(ctx, main, SEATS, 'On sale');
    hot = await phase(ctx, '1 one hot ticket type', [sale], [target(ctx, sale, url, CLIENTS)]);
    const met = rate(hot) >= 1000 && hot.p99 <= 500;
    console.log(
      `bench onsale: goal 1 (>= 1,000 bookings/s, p99 <= 500 ms, whole stack): ${met ? 'met' : 'NOT met'}`,
    );
    rows.push(tableRow('1 on-sale, whole stack', `one hot ticket type, ${CLIENTS} buyers`, hot));
  }
  if (run(2)) {
    const seats = split(SEATS, TENANTS);
    const clients = split(CLIENTS, TENANTS);
    const sales = [];
    for (const [i, tenant] of ctx.tenants.entries())
      sales.push(await eventOnSale(ctx, tenant, seats[i], `Spread ${i + 1}`));
    const targets = sales.map((s, i) => ({
      ...target(ctx, s, url, clients[i]),
      label: s.tenant.tenantId,
    }));
    const spread = await phase(ctx, `2 spread over ${TENANTS} tenants`, sales, targets);
    const scenario = '2 on-sale, hot vs spread';
    rows.push(tableRow(scenario, `spread over ${TENANTS} tenants`, spread));
    if (hot) rows.push(tableRow(scenario, 'one hot ticket type (1)', hot, spread, 0.8));
  }
  if (run(4)) {
    const seats = split(SEATS, 2);
    const clients = split(CLIENTS, 2);
    const sales = [
      await eventOnSale(ctx, main, seats[0], 'Event A'),
      await eventOnSale(ctx, main, seats[1], 'Event B'),
    ];
    const targets = sales.map((s, i) => ({
      ...target(ctx, s, url, clients[i]),
      label: `event ${'AB'[i]}`,
    }));
    const two = await phase(ctx, '4 two events of one tenant at once', sales, targets);
    const scenario = '4 on-sale, two events of a tenant';
    if (hot) rows.push(tableRow(scenario, 'one event alone (1)', hot));
    for (const [i, m] of two.perTarget.entries())
      rows.push(tableRow(scenario, `event ${'AB'[i]}`, { ...m, exact: two.exact }));
    rows.push(tableRow(scenario, 'both events together', two, hot));
  }
  if (run(3)) {
    // A second API process: the deployments scale the API and the mail worker apart, and a
    // second mail worker sells nothing (it would only contend for the same mails and CPU).
    const second = await startApp('bookings-invitations', await freePort(), {
      ...ctx.stack.bookingsEnv,
      PROCESS_ROLE: 'api',
    });
    ctx.stack.add(second);
    await warmUp(ctx, [url, second.url]);
    const sale = await eventOnSale(ctx, main, SEATS, 'Two replicas');
    const clients = split(CLIENTS, 2);
    const targets = [
      { ...target(ctx, sale, url, clients[0]), label: 'replica 1' },
      { ...target(ctx, sale, second.url, clients[1]), label: 'replica 2' },
    ];
    const two = await phase(ctx, '3 two replicas selling one event', [sale], targets);
    const scenario = '3 on-sale, two replicas';
    if (hot) rows.push(tableRow(scenario, 'one replica (1)', hot));
    rows.push(tableRow(scenario, 'two replicas, one event', two, hot, 1));
  }
  return rows;
}

export async function main() {
  console.log('bench onsale: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  // every phase writes 6,000 bookings, mails and deliveries, and the workers update each: without
  // autovacuum the later phases scan what the earlier ones left dead
  await onServerWithAutovacuum('onsale', onsaleOn);
}

async function onsaleOn() {
  const db = (name, svc) => recreateDatabase(benchServer(), benchDbName(`os_${name}`), svc);
  const tenantDb = await db('tenant_info', 'tenant-info');
  const peopleDb = await db('crm_people', 'crm-people');
  const companiesDb = await db('crm_companies', 'crm-companies');
  const eventsDb = await db('events', 'events');
  const bookingsDb = await db('bookings_invitations', 'bookings-invitations');
  const ports = {};
  for (const app of ['gateway', 'tenant', 'people', 'companies', 'events', 'bookings'])
    ports[app] = await freePort();
  const sink = await startMailSink();
  const receiver = await startWebhookReceiver();
  const rows = [];
  let stack;
  let nc;
  const bookingsPool = new pg.Pool({ connectionString: bookingsDb, max: 4 });
  const peoplePool = new pg.Pool({ connectionString: peopleDb, max: 2 });
  try {
    stack = await startBenchStack({
      tenantDb,
      peopleDb,
      companiesDb,
      eventsDb,
      bookingsDb,
      ports,
      tenantId: 'onsale-1',
      // the receiver is on this machine; a webhook to 127.0.0.1 is refused otherwise
      eventsEnv: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
      bookingsEnv: { SMTP_URL: sink.url },
    });
    nc = await connect({ servers: stack.natsUrl, name: 'bench-onsale' });
    const ctx = {
      stack,
      databases: [tenantDb, peopleDb, companiesDb, eventsDb, bookingsDb],
      sink,
      receiver,
      bookingsPool,
      peoplePool,
      jsm: await nc.jetstreamManager(),
    };
    const { key, headers, gatewayHeaders } = stack;
    const tenants = [{ tenantId: 'onsale-1', key, headers, gatewayHeaders }];
    for (let i = 2; i <= TENANTS; i++) tenants.push(await stack.addTenant(`onsale-${i}`));
    ctx.tenants = [];
    for (const t of tenants) ctx.tenants.push(await setUpTenant(ctx, t));
    console.log(
      `bench onsale: ${SEATS} seats, ${CLIENTS} buyers; the whole stack (tenant-info, crm-people, ` +
        `crm-companies, events, bookings-invitations, gateway) running, SMTP sink and webhook ` +
        `receiver local`,
    );
    rows.push(...(await phases(ctx)));
  } catch (err) {
    problems.push(`on-sale: ${err.stack ?? err}`);
  } finally {
    await nc?.close();
    await bookingsPool.end();
    await peoplePool.end();
    await stack?.stop();
    await receiver.stop();
    await sink.stop();
  }
  // the design in plain SQL, on a database of its own, after the stack has stopped
  const raw = await measureDesign('batch-writer').catch((err) => {
    problems.push(`raw batch writer: ${err.stack ?? err}`);
    return { sold: 0, seconds: 1, p50: NaN, p99: NaN, exact: false };
  });
  console.log(
    `bench onsale: raw batch writer (plain SQL, same database server): ${rate(raw)} bookings/s ` +
      `(p50 ${raw.p50.toFixed(0)} ms, p99 ${raw.p99.toFixed(0)} ms${raw.exact ? ', exact' : ', NOT exact'})`,
  );
  if (!raw.exact) problems.push(`raw batch writer: not exact: ${JSON.stringify(raw.verdict)}`);
  const hot = rows.find((r) => r.scenario.startsWith('1 '));
  // the service's bookings/s over the plain-SQL design's (no goal: the goal is 1,000/s)
  rows.unshift(tableRow('1 on-sale, whole stack', 'raw batch writer (plain SQL)', raw));
  if (hot) Object.assign(hot, { ratio: hot.reqPerSec / rows[0].reqPerSec });
  console.log('');
  printTable(rows);
  if (problems.length) {
    console.error(`\nbench onsale: ${problems.length} problem(s), their figures do not count:`);
    for (const p of problems) console.error(`- ${p}`);
    process.exitCode = 1;
  }
}
