// npm run bench -- events: the events service under the load a portal and an integrator put on it.
//   1 E1 list of the published events of a website with BENCH_EVENTS (10,000) events, 50 per page
//     sorted by start, page 1 (a portal's first view) and BENCH_DEEP_PAGE (100, an integrator's
//     sync): gateway and direct against a raw baseline (node:http + pg running the same page and
//     count queries) in the same run;
//   2 W8 public read of a published event (no key): gateway and direct against a raw baseline;
//   3 webhook fan-out: BENCH_FANOUT_EVENTS (1,000) events published through the gateway to
//     BENCH_FANOUT_ENDPOINTS (10) endpoints of a local receiver: time until every delivery arrived
//     (10,000), and deliveries per second.
// A second tenant holds as many events on a website of its own (other tenants present, as in prod).
// Settings: BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_EVENTS, BENCH_DEEP_PAGE,
// BENCH_FANOUT_EVENTS, BENCH_FANOUT_ENDPOINTS, BENCH_DATABASE_SERVER, NATS_URL; for profiling,
// BENCH_EVENTS_SKIP_LIST=1 (scenario 1 left out) and BENCH_EVENTS_NODE_OPTIONS (the events
// process's NODE_OPTIONS, e.g. `--require <a preload that starts the inspector's profiler>`).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, JSONCodec } from 'nats';
import pg from 'pg';
import { benchAll, freePort, printTable, problems, row } from './measure.mjs';
import {
  apiClient,
  benchDbName,
  benchServer,
  recreateDatabase,
  startBenchStack,
} from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eventCount = Number(process.env.BENCH_EVENTS ?? 10_000);
const deepPage = Number(process.env.BENCH_DEEP_PAGE ?? 100);
const fanoutEvents = Number(process.env.BENCH_FANOUT_EVENTS ?? 1000);
const fanoutEndpoints = Number(process.env.BENCH_FANOUT_ENDPOINTS ?? 10);
const pageSize = 50;
const TENANT = 'bench-events';
const OTHER = 'bench-events-other';

/**
 * `count` published events of one tenant on one published website, starting a day apart from
 * tomorrow, and `unpublished` more that are ready to publish (for the fan-out), in plain SQL.
 */
async function seedEvents(pool, tenantId, count, unpublished = 0) {
  const websiteId = randomUUID();
  await pool.query(
    `INSERT INTO "Website" (id, "tenantId", name, url, "urlKey", published, "publishedAt", "dateModified")
     VALUES ($1, $2, $3, $4, $5, true, now(), now())`,
    [
      websiteId,
      tenantId,
      `Portal of ${tenantId}`,
      `https://${tenantId}.example/`,
      `${tenantId}.example`,
    ],
  );
  const insert = async (from, n, published) => {
    await pool.query(
      `INSERT INTO "Event" (id, "tenantId", title, subtitle, description, "startsAt", "endsAt",
         "timeZone", venue, capacity, status, published, "publishedAt", "dateModified")
       SELECT gen_random_uuid(), $1, 'Bench event ' || i, 'Evening ' || i, 'An evening of benchmarks',
         date_trunc('day', now()) + make_interval(days => i + 1, hours => 19),
         date_trunc('day', now()) + make_interval(days => i + 1, hours => 22),
         'Europe/Berlin',
         jsonb_build_object('name', 'Hall ' || (i % 7), 'street', 'Hauptstraße 1', 'zip', '10115',
           'city', 'Berlin', 'country', 'DE'),
         200, 'scheduled', $4, CASE WHEN $4 THEN now() END, now()
       FROM generate_series($2::int, $3::int) AS i`,
      [tenantId, from, from + n - 1, published],
    );
  };
  for (let done = 0; done < count; done += 5000)
    await insert(done, Math.min(5000, count - done), true);
  if (unpublished) await insert(count, unpublished, false);
  await pool.query(
    `INSERT INTO "EventWebsite" ("tenantId", "eventId", "websiteId")
     SELECT "tenantId", id, $2 FROM "Event" WHERE "tenantId" = $1`,
    [tenantId, websiteId],
  );
  await pool.query('ANALYZE');
  return websiteId;
}

const LIST_SQL = `SELECT e.* FROM "Event" e
  JOIN "EventWebsite" ew ON ew."eventId" = e.id AND ew."websiteId" = $2 AND ew."tenantId" = $1
  WHERE e."tenantId" = $1 AND e.published
  ORDER BY e."startsAt" ASC, e.id ASC LIMIT $3 OFFSET $4`;
const COUNT_SQL = `SELECT count(*)::int AS n FROM "Event" e
  JOIN "EventWebsite" ew ON ew."eventId" = e.id AND ew."websiteId" = $2 AND ew."tenantId" = $1
  WHERE e."tenantId" = $1 AND e.published`;
// A published event on at least one published website of the tenant, with what W8 answers beside
// it: the published websites it is on (by name), its portal tags (by position) and its images, in
// one statement. Timestamps are read as UTC (the columns have no time zone).
const PUBLIC_SQL = `SELECT e.id, e.title, e.subtitle, e.description,
    e."startsAt" AT TIME ZONE 'UTC' AS "startsAt", e."endsAt" AT TIME ZONE 'UTC' AS "endsAt",
    e."timeZone", e.venue, e."onlineMeeting", e.capacity, e."categoryId", e.contributors,
    e."contactPerson", e.status, e."publishedAt" AT TIME ZONE 'UTC' AS "publishedAt",
    COALESCE((SELECT json_agg(json_build_object('id', w.id, 'name', w.name, 'url', w.url) ORDER BY w.name)
      FROM "EventWebsite" ew JOIN "Website" w ON w.id = ew."websiteId" AND w."tenantId" = $2 AND w.published
      WHERE ew."eventId" = e.id), '[]') AS websites,
    COALESCE((SELECT json_agg(json_build_object('id', x.id, 'text', x.text, 'color', x.color)
        ORDER BY x.position, x.text)
      FROM "EventTag" t JOIN "EventSettingsEntry" x ON x.id = t."entryId" AND x.list = 'PORTAL_TAGS'
      WHERE t."eventId" = e.id AND t."tenantId" = $2), '[]') AS "portalTags",
    COALESCE((SELECT json_agg(i.id ORDER BY i.position)
      FROM "EventImage" i WHERE i."tenantId" = $2 AND i."eventId" = e.id), '[]') AS images
  FROM "Event" e
  WHERE e.id = $1 AND e."tenantId" = $2 AND e.published AND EXISTS (
    SELECT 1 FROM "EventWebsite" ew JOIN "Website" w ON w.id = ew."websiteId" AND w.published
    WHERE ew."eventId" = e.id AND ew."tenantId" = $2)`;

const pick = (o, keys) => (o ? Object.fromEntries(keys.map((k) => [k, o[k] ?? null])) : null);

/**
 * W8's answer from PUBLIC_SQL's row. The bench's events have no category, contributors or
 * images (their texts and sizes would need the settings lists and the file store): the raw target
 * is checked to answer the same data as the service before it is measured, so a seed with them
 * fails that check instead of measuring less work.
 */
function publicEvent(r) {
  const meeting = r.onlineMeeting?.platformId ? { platformId: r.onlineMeeting.platformId } : null;
  return {
    id: r.id,
    title: r.title,
    subtitle: r.subtitle,
    description: r.description,
    startsAt: r.startsAt?.toISOString() ?? null,
    endsAt: r.endsAt?.toISOString() ?? null,
    timeZone: r.timeZone,
    venue: pick(r.venue, ['name', 'street', 'zip', 'city', 'country']),
    onlineMeeting: meeting,
    capacity: r.capacity,
    category: r.categoryId ? { id: r.categoryId, text: null } : null,
    contributors: Array.isArray(r.contributors) ? r.contributors : [],
    contactPerson: pick(r.contactPerson, [
      'salutation',
      'title',
      'firstname',
      'lastname',
      'position',
      'email',
      'phone',
    ]),
    portalTags: r.portalTags,
    status: r.status,
    publishedAt: r.publishedAt?.toISOString() ?? null,
    images: r.images.map((id) => ({ id, sizes: [] })),
    websites: r.websites,
  };
}

/** The floor: node:http + pg answering the same two operations in the envelope. */
async function startRawEvents(port, connectionString) {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const envelope = (data, totalResults) =>
    JSON.stringify({
      data,
      message: null,
      metaData: { totalResults, responseTimeStamp: new Date().toISOString() },
      statusCode: 200,
    });
  const srv = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://raw');
      const tenant = req.headers['x-service-tenantid'];
      const publicRead = /^\/v1\/crm\/websites\/public\/events\/([0-9a-f-]{36})$/.exec(
        url.pathname,
      );
      let body;
      if (publicRead) {
        const { rows } = await pool.query(PUBLIC_SQL, [publicRead[1], tenant]);
        if (!rows.length) {
          res.writeHead(404).end();
          return;
        }
        body = envelope(publicEvent(rows[0]), 1);
      } else {
        const websiteId = url.searchParams.get('websiteId');
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
        const [list, count] = await Promise.all([
          pool.query(LIST_SQL, [tenant, websiteId, pageSize, (page - 1) * pageSize]),
          pool.query(COUNT_SQL, [tenant, websiteId]),
        ]);
        body = envelope(list.rows, count.rows[0].n);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  return {
    name: 'raw-events',
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise((r) => srv.close(r));
      await pool.end();
    },
  };
}

/** A webhook receiver counting deliveries (2xx at once) and the distinct webhook ids it saw. */
async function startReceiver() {
  const seen = new Set();
  let deliveries = 0;
  let waiter = null;
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries++;
      seen.add(`${req.url} ${req.headers['webhook-id']}`);
      res.writeHead(204).end();
      if (waiter && seen.size >= waiter.n) waiter.resolve();
    });
  });
  const port = await freePort();
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  return {
    url: (i) => `http://127.0.0.1:${port}/hook/${i}`,
    get distinct() {
      return seen.size;
    },
    get deliveries() {
      return deliveries;
    },
    until: (n, ms) =>
      new Promise((resolve, reject) => {
        if (seen.size >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`${seen.size} of ${n} deliveries after ${ms / 1000} s`)),
          ms,
        );
        waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      }),
    stop: () => new Promise((r) => srv.close(r)),
  };
}

/** Runs `fn` over `items` with `n` at a time. */
async function pooled(items, n, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/**
 * Answers events' publication check (bookings-invitations.ticket-types.summary) with one active
 * ticket type for every event: this bench measures the fan-out, and runs no bookings-invitations.
 */
async function ticketTypesStandIn(natsUrl) {
  const nc = await connect({ servers: natsUrl, name: 'bench-ticket-types-stand-in' });
  const codec = JSONCodec();
  nc.subscribe('bookings-invitations.ticket-types.summary', {
    callback: (_err, msg) => {
      const { id } = codec.decode(msg.data);
      msg.respond(codec.encode({ id, response: { total: 1, active: 1 }, isDisposed: true }));
    },
  });
  await nc.flush();
  return { stop: () => nc.close() };
}

async function fanout(stack, pool, websiteId, receiver) {
  stack.add(await ticketTypesStandIn(stack.natsUrl));
  const api = apiClient(stack.gatewayUrl, stack.gatewayHeaders);
  for (let i = 0; i < fanoutEndpoints; i++) {
    await api('POST', '/v1/crm/integrations/webhooks', {
      url: receiver.url(i),
      description: `bench ${i}`,
      eventTypes: ['event.published'],
    });
  }
  const { rows } = await pool.query(
    `SELECT id FROM "Event" WHERE "tenantId" = $1 AND NOT published ORDER BY "startsAt" LIMIT $2`,
    [TENANT, fanoutEvents],
  );
  const expected = rows.length * fanoutEndpoints;
  const started = Date.now();
  await pooled(rows, 10, ({ id }) =>
    api('PUT', `/v1/crm/events/${id}/publication`, { published: true, websiteIds: [websiteId] }),
  );
  const published = Date.now();
  await receiver.until(expected, 600_000);
  const done = Date.now();
  return {
    scenario: `3 webhook fan-out: ${rows.length} events x ${fanoutEndpoints} endpoints`,
    target: `${expected} deliveries: ${((done - started) / 1000).toFixed(1)} s (publishing took ${((published - started) / 1000).toFixed(1)} s), ${Math.round(expected / ((done - started) / 1000))} deliveries/s; ${receiver.deliveries - receiver.distinct} duplicates`,
    reqPerSec: null,
    p50: null,
    p99: null,
    ratio: null,
    goal: null,
    failed: false,
  };
}

export async function main() {
  console.log('bench events: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const db = (name, svc) => recreateDatabase(benchServer(), benchDbName(`ev_${name}`), svc);
  const eventsDb = await db('events', 'events');
  const peopleDb = await db('crm_people', 'crm-people');
  const tenantDb = await db('tenant_info', 'tenant-info');
  const pool = new pg.Pool({ connectionString: eventsDb, max: 4 });
  const started = Date.now();
  const websiteId = await seedEvents(pool, TENANT, eventCount, fanoutEvents);
  await seedEvents(pool, OTHER, eventCount);
  console.log(
    `bench events: seeded 2 x ${eventCount} events in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const ports = {
    gateway: await freePort(),
    people: await freePort(),
    events: await freePort(),
    tenant: await freePort(),
  };
  const receiver = await startReceiver();
  const stack = await startBenchStack({
    peopleDb,
    eventsDb,
    tenantDb,
    ports,
    tenantId: TENANT,
    // the receiver is on this machine; the public limit would stop the bench's one client
    eventsEnv: {
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_WORKER_POLL_MS: '100',
      DATABASE_POOL_SIZE: '10',
      ...(process.env.BENCH_EVENTS_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.BENCH_EVENTS_NODE_OPTIONS }
        : {}),
    },
    gatewayEnv: { PUBLIC_RATE_LIMIT_BURST: '1000000', PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  const rows = [];
  try {
    const raw = await startRawEvents(await freePort(), eventsDb);
    stack.add(raw);
    const direct = { ...stack.serviceHeaders };
    const listPath = (page) =>
      `/v1/crm/events?websiteId=${websiteId}&published=true&sort=startsAt&pageSize=${pageSize}&page=${page}`;
    const listTarget = (name, url, headers, page) => ({ name, url, headers, path: listPath(page) });
    const [eventId] = (
      await pool.query(
        `SELECT id FROM "Event" WHERE "tenantId" = $1 AND published ORDER BY "startsAt" LIMIT 1 OFFSET 100`,
        [TENANT],
      )
    ).rows.map((r) => r.id);
    const publicPath = `/v1/crm/websites/public/events/${eventId}`;

    for (const page of process.env.BENCH_EVENTS_SKIP_LIST ? [] : [1, deepPage]) {
      const listRaw = listTarget('raw node:http + pg', raw.url, stack.headers, page);
      const listDirect = listTarget('direct events', stack.eventsUrl, direct, page);
      const listGateway = listTarget('gateway', stack.gatewayUrl, stack.gatewayHeaders, page);
      const scenario1 = `1 E1 published events of a website (${eventCount}), page ${page}`;
      const [lRaw, lDirect, lGateway] = await benchAll(scenario1, [
        { t: listRaw },
        { t: listDirect },
        { t: listGateway },
      ]);
      rows.push(row(scenario1, lRaw));
      rows.push(row(scenario1, lDirect, lRaw, 0.4));
      rows.push(row(scenario1, lGateway, lDirect, 0.85));
    }

    const pubRaw = {
      name: 'raw node:http + pg',
      url: raw.url,
      path: publicPath,
      headers: stack.headers,
    };
    const pubDirect = {
      name: 'direct events',
      url: stack.eventsUrl,
      path: publicPath,
      headers: direct,
    };
    const pubGateway = {
      name: 'gateway (no key)',
      url: stack.gatewayUrl,
      path: publicPath,
      headers: stack.headers,
    };
    const [pRaw, pDirect, pGateway] = await benchAll('2 public event read', [
      // the raw floor must answer the same event, websites, tags and images as W8
      { t: pubRaw, like: { target: pubDirect } },
      { t: pubDirect },
      { t: pubGateway },
    ]);
    const scenario2 = '2 W8 public read of a published event';
    rows.push(row(scenario2, pRaw));
    rows.push(row(scenario2, pDirect, pRaw, 0.4));
    rows.push(row(scenario2, pGateway, pDirect, 0.85));

    try {
      rows.push(await fanout(stack, pool, websiteId, receiver));
    } catch (err) {
      problems.push(`3 webhook fan-out: ${err.message}`);
    }
  } finally {
    await stack.stop();
    await receiver.stop();
    await pool.end();
  }
  console.log('');
  printTable(rows);
  if (problems.length) {
    console.error(`\nbench events: ${problems.length} problem(s), their figures do not count:`);
    for (const p of problems) console.error(`- ${p}`);
    process.exitCode = 1;
  }
}
