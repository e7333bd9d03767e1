// Check-in throughput (ET9): every request checks in a ticket not checked in before, with its
// signed code, through bookings-invitations (directly and, when given, through the gateway)
// against a raw node:http + pg server doing the same work in plain SQL: verify the Ed25519
// signature, then one `INSERT INTO "CheckIn" ... SELECT ... ON CONFLICT ("ticketId") DO NOTHING`.
// The service does more per check-in (the ticket's row share-locked, booking history, the
// outbox event for webhooks and touchpoints, in one transaction): the ratio says what that costs.
// After the run, the CheckIn rows of each event must equal its 200 answers (exactly once).
// `npm run bench -- bookings` runs it as scenario 2 (tools/bench/bookings.mjs).
// Settings: BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_CHECKIN_TICKETS (tickets
// seeded per target, default 40,000: enough for every request of the run to take a fresh one).
import autocannon from 'autocannon';
import {
  generateKeyPairSync,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  randomUUID,
  sign,
  verify,
} from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { connections, duration, freePort, problems, rounds, row, warmUp } from './measure.mjs';

const ticketsPerTarget = Number(process.env.BENCH_CHECKIN_TICKETS ?? 40_000);

// ---- the code format of apps/bookings-invitations/src/ticket-codes/README.md ----------------

const uuidBytes = (id) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidText = (b) =>
  b.toString('hex').replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, '$1-$2-$3-$4-$5');

function codeOf(key, keyId, ticketId, eventId, validUntil) {
  const payload = Buffer.alloc(36);
  uuidBytes(ticketId).copy(payload, 0);
  uuidBytes(eventId).copy(payload, 16);
  payload.writeUInt32BE(validUntil, 32);
  const signed = `v1.${keyId}.${payload.toString('base64url')}`;
  return `${signed}.${sign(null, Buffer.from(signed), key).toString('base64url')}`;
}

/**
 * An event copy, one ticket type, bookings of 100 tickets each and `count` valid tickets, the
 * event's signing key (made here as the service makes it); answers the tickets' codes.
 */
async function seedEvent(pool, tenantId, count) {
  const eventId = randomUUID();
  const typeId = randomUUID();
  await pool.query(
    `INSERT INTO "EventCopy" ("tenantId", "eventId", sequence, title, "startsAt", "endsAt", "timeZone",
       published, status, "websiteIds", sold)
     VALUES ($1, $2, 1, 'Bench check-in', now() + interval '1 day', now() + interval '2 days',
       'Europe/Berlin', true, 'scheduled', '{}', $3)`,
    [tenantId, eventId, count],
  );
  await pool.query(
    `INSERT INTO "TicketType" (id, "tenantId", "eventId", name, price, currency, sold, "createdBy", "modifiedBy")
     VALUES ($1, $2, $3, 'Regular', 10, 'EUR', $4, 'bench', 'bench')`,
    [typeId, tenantId, eventId, count],
  );
  await pool.query(
    `WITH b AS (
       INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", "bookerFirstname",
         "bookerLastname", "bookerEmail", language, currency, "totalNet", "totalTax", "totalGross",
         "confirmationToken", "createdBy", "modifiedBy")
       SELECT gen_random_uuid(), $1, $2, 'confirmed', 'paid', 'Bench', 'Booker ' || g,
              'booker' || g || '@example.com', 'en', 'EUR', 0, 0, 0, md5(random()::text), 'bench', 'bench'
         FROM generate_series(0, ($4::int - 1) / 100) g
       RETURNING id),
     numbered AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM b)
     INSERT INTO "EventTicket" (id, "tenantId", "eventId", "bookingId", "ticketTypeId", "ticketTypeName",
       "priceGross", "priceNet", "priceTax", "taxRatePercent", status, "participantFirstname",
       "participantLastname")
     SELECT gen_random_uuid(), $1, $2, numbered.id, $3, 'Regular', 10, 8.40, 1.60, 19, 'valid',
            'Visitor', 'No ' || g
       FROM generate_series(0, $4::int - 1) g JOIN numbered ON numbered.n = g / 100`,
    [tenantId, eventId, typeId, count],
  );
  const pair = generateKeyPairSync('ed25519');
  await pool.query(
    `INSERT INTO "EventSigningKey" ("tenantId", "eventId", "keyId", "publicKey", "privateKey")
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [
      tenantId,
      eventId,
      randomBytes(6).toString('base64url'),
      pair.publicKey.export({ type: 'spki', format: 'pem' }),
      pair.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    ],
  );
  const {
    rows: [k],
  } = await pool.query(
    `SELECT "keyId", "privateKey" FROM "EventSigningKey" WHERE "tenantId" = $1 AND "eventId" = $2`,
    [tenantId, eventId],
  );
  const key = createPrivateKey(k.privateKey);
  const validUntil = Math.floor(Date.now() / 1000) + 3 * 86_400;
  const { rows } = await pool.query(
    `SELECT id FROM "EventTicket" WHERE "tenantId" = $1 AND "eventId" = $2 ORDER BY id`,
    [tenantId, eventId],
  );
  return { eventId, codes: rows.map((r) => codeOf(key, k.keyId, r.id, eventId, validUntil)) };
}

// ---- the raw baseline ------------------------------------------------------------------------

const CHECK_IN_SQL = `
  INSERT INTO "CheckIn" (id, "tenantId", "eventId", "ticketId", nonce, location, actor)
  SELECT gen_random_uuid(), t."tenantId", t."eventId", t.id, $3, $4, 'raw'
    FROM "EventTicket" t WHERE t."tenantId" = $1 AND t.id = $2 AND t.status = 'valid'
  ON CONFLICT ("ticketId") DO NOTHING
  RETURNING "checkedInAt"`;

async function startRawCheckIn(port, connectionString) {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const keys = new Map();
  const keyOf = async (tenantId, eventId) => {
    const k = `${tenantId} ${eventId}`;
    if (!keys.has(k)) {
      const { rows } = await pool.query(
        `SELECT "keyId", "publicKey" FROM "EventSigningKey" WHERE "tenantId" = $1 AND "eventId" = $2`,
        [tenantId, eventId],
      );
      keys.set(
        k,
        rows[0] ? { keyId: rows[0].keyId, key: createPublicKey(rows[0].publicKey) } : null,
      );
    }
    return keys.get(k);
  };
  const send = (res, status, data, message = null) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        data,
        message,
        metaData: { totalResults: data ? 1 : 0, responseTimeStamp: new Date().toISOString() },
        statusCode: status,
      }),
    );
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const tenant = req.headers['x-service-tenantid'];
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const [v, keyId, payload, sig] = String(body.code).split('.');
        const bytes = Buffer.from(payload ?? '', 'base64url');
        if (v !== 'v1' || bytes.length !== 36) return send(res, 400, null, 'invalid code');
        const ticketId = uuidText(bytes.subarray(0, 16));
        const eventId = uuidText(bytes.subarray(16, 32));
        const key = await keyOf(tenant, eventId);
        const ok =
          key?.keyId === keyId &&
          verify(
            null,
            Buffer.from(`${v}.${keyId}.${payload}`),
            key.key,
            Buffer.from(sig, 'base64url'),
          );
        if (!ok) return send(res, 400, null, 'invalid code');
        const { rows } = await pool.query(CHECK_IN_SQL, [
          tenant,
          ticketId,
          body.nonce ?? null,
          body.location ?? null,
        ]);
        if (!rows.length) return send(res, 409, null, 'checked in before');
        send(res, 200, { ticketId, checkedInAt: rows[0].checkedInAt });
      } catch (err) {
        res.writeHead(500).end(String(err));
      }
    });
  });
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  return {
    name: 'raw-checkin',
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise((r) => srv.close(r));
      await pool.end();
    },
  };
}

// ---- the runs --------------------------------------------------------------------------------

/** autocannon POSTing check-ins, each with the next unused code of the target. */
function cannonCheckIns(t, seconds) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        title: t.name,
        url: `${t.url}/v1/crm/event-tickets/check-in`,
        method: 'POST',
        headers: { ...t.headers, 'content-type': 'application/json' },
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const code = t.codes[t.next++] ?? 'exhausted';
              return {
                ...req,
                body: JSON.stringify({ code, nonce: `n${t.next}`, location: 'Gate' }),
              };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    autocannon.track(inst, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    });
  });
}

/**
 * The check-in scenario against a running bookings-invitations: `url` and `headers` call it
 * directly (tenant headers, and X-Internal-Token in production); `gateway` ({ url, headers })
 * adds the same through the gateway; `databaseUrl` is the service's database (seeded here),
 * `tenantId` the tenant of the headers. Answers rows for printTable; failures go to `problems`.
 */
export async function checkInScenario({ url, headers, databaseUrl, tenantId, gateway }) {
  const scenario = 'ET9 check-in, each ticket once';
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const raw = await startRawCheckIn(await freePort(), databaseUrl);
  try {
    const targets = [
      { name: 'raw node:http + pg', url: raw.url, headers },
      { name: 'direct bookings-invitations', url, headers },
      ...(gateway ? [{ name: 'gateway', url: gateway.url, headers: gateway.headers }] : []),
    ];
    for (const t of targets) {
      const seeded = await seedEvent(pool, tenantId, ticketsPerTarget);
      Object.assign(t, seeded, { next: 0, runs: [], ok: 0 });
    }
    const slice = Math.max(1, Math.ceil(duration / rounds));
    for (const t of targets) t.warm = await cannonCheckIns(t, warmUp);
    for (let r = 0; r < rounds; r++)
      for (const t of targets) t.runs.push(await cannonCheckIns(t, slice));
    const measured = [];
    for (const t of targets) {
      const total = t.runs.reduce((n, x) => n + x.requests.total, 0);
      const seconds = t.runs.reduce((n, x) => n + x.duration, 0);
      const bad = t.runs.reduce((n, x) => n + x.non2xx + x.errors + x.timeouts, 0);
      const {
        rows: [{ n }],
      } = await pool.query(`SELECT count(*)::int AS n FROM "CheckIn" WHERE "eventId" = $1`, [
        t.eventId,
      ]);
      const ok = [t.warm, ...t.runs].reduce((k, x) => k + x['2xx'], 0);
      // every 2xx answer is a check-in; a request still in flight when a run ends may check in
      // without its answer being counted (at most one per connection and run)
      const inFlight = connections * (t.runs.length + 1);
      const exact = n >= ok && n <= ok + inFlight;
      const failed = bad > 0 || t.next > t.codes.length || !exact;
      if (bad > 0) problems.push(`${scenario} / ${t.name}: ${bad} failed of ${total} requests`);
      if (t.next > t.codes.length)
        problems.push(`${scenario} / ${t.name}: ran out of tickets (raise BENCH_CHECKIN_TICKETS)`);
      if (!exact) problems.push(`${scenario} / ${t.name}: ${n} check-ins for ${ok} 2xx answers`);
      measured.push({
        name: t.name,
        reqPerSec: Math.round(total / seconds),
        p50: Math.round(t.runs.reduce((s, x) => s + x.latency.p50 * x.requests.total, 0) / total),
        p99: Math.max(...t.runs.map((x) => x.latency.p99)),
        failed,
      });
    }
    const [mRaw, mDirect, mGateway] = measured;
    return [
      row(scenario, mRaw),
      row(scenario, mDirect, mRaw, 0.3),
      ...(mGateway ? [row(scenario, mGateway, mDirect, 0.85)] : []),
    ];
  } finally {
    await raw.stop();
    await pool.end();
  }
}
