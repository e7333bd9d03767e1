// The invitation import (IN14) against its floor: BENCH_IMPORT_ROWS (10,000) rows of one CSV
// uploaded to bookings-invitations, timed from the upload until the job reports done (parse,
// job row, the worker's checks and its multi-row inserts of 1,000 with ON CONFLICT DO NOTHING,
// progress and per-row results), against a raw multi-row insert of the same rows with `pg`
// (unnest, 1,000 per statement, one connection). Figures: rows per second and milliseconds.
//
// importScenario({ serviceUrl, headers, databaseUrl, tenantId }) runs it against a running
// service (directly or through the gateway: `serviceUrl` is the base before /v1/crm, `headers`
// what that base needs) whose database is `databaseUrl`; the event is made in that database as
// the service's copy of it, so the events service is not needed. `npm run bench -- bookings` runs
// it as scenario 3 (tools/bench/bookings.mjs).
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { problems } from './measure.mjs';

const rowCount = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const SCENARIO = `import ${rowCount.toLocaleString('en')} invitations`;
const CHUNK = 1000;
// Node's own (the lint's environment for tools does not list them)
const { FormData, Blob } = globalThis;

/** An event of the tenant as bookings-invitations keeps it (its copy), made in its database. */
async function copiedEvent(client, tenantId) {
  const eventId = randomUUID();
  await client.query(
    `INSERT INTO "EventCopy" ("tenantId", "eventId", sequence, title, "startsAt", "endsAt",
       "timeZone", published, status, "websiteIds")
     VALUES ($1, $2::uuid, 1, 'Bench import', now() + interval '30 days',
       now() + interval '31 days', 'Europe/Berlin', true, 'scheduled', '{}')`,
    [tenantId, eventId],
  );
  return eventId;
}

const guests = (n, tag) =>
  Array.from({ length: n }, (_, i) => ({
    email: `guest${i}.${tag}@bench.example`,
    firstname: 'Guest',
    lastname: `Number ${i}`,
  }));

async function viaService({ serviceUrl, headers }, eventId, rows) {
  const csv = [
    'email;firstname;lastname',
    ...rows.map((r) => `${r.email};${r.firstname};${r.lastname}`),
  ].join('\r\n');
  const form = new FormData();
  form.append('eventId', eventId);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
  const h = { ...headers };
  delete h['content-type'];
  const started = performance.now();
  const res = await fetch(`${serviceUrl}/v1/crm/invitations/import`, {
    method: 'POST',
    headers: h,
    body: form,
  });
  const body = await res.json();
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  for (;;) {
    const job = await fetch(`${serviceUrl}/v1/crm/invitations/import/${body.data.jobId}`, {
      headers: h,
    }).then((r) => r.json());
    const { status, created } = job.data ?? {};
    if (status === 'done') {
      if (created !== rows.length) throw new Error(`job created ${created} of ${rows.length}`);
      return performance.now() - started;
    }
    if (status === 'failed' || !job.data) throw new Error(`job: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The floor: the same rows (with tokens) inserted 1,000 per statement with pg, in one transaction. */
async function raw(client, tenantId, eventId, rows) {
  const started = performance.now();
  await client.query('BEGIN');
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await client.query(
      `INSERT INTO "Invitation" (id, "tenantId", "eventId", token, email, "emailKey", firstname,
         lastname, language, status, "dateCreated", "dateModified", "createdBy", "modifiedBy")
       SELECT gen_random_uuid(), $1, $2::uuid, t, e, lower(e), f, l, 'en', 'created', now(), now(),
              'bench', 'bench'
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS r(t, e, f, l)
       ON CONFLICT ("tenantId", "eventId", "emailKey") DO NOTHING`,
      [
        tenantId,
        eventId,
        chunk.map(() => randomBytes(16).toString('base64url')),
        chunk.map((r) => r.email),
        chunk.map((r) => r.firstname),
        chunk.map((r) => r.lastname),
      ],
    );
  }
  await client.query('COMMIT');
  return performance.now() - started;
}

const tableRow = (target, ms, base) => ({
  scenario: SCENARIO,
  target: `${target} (p50 = ms for all rows)`,
  reqPerSec: Math.round((rowCount * 1000) / ms),
  p50: Math.round(ms),
  p99: null,
  ratio: base ? base / ms : null,
  goal: null,
  failed: false,
});

/**
 * The scenario against a running bookings-invitations: rows of the final table (rows/s in the
 * req/s column, the whole duration in the p50 column; ratio = raw duration / import duration).
 */
export async function importScenario({ serviceUrl, headers, databaseUrl, tenantId }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tag = randomUUID().slice(0, 6);
    const rows = guests(rowCount, tag);
    const rawMs = await raw(client, tenantId, await copiedEvent(client, tenantId), rows);
    const importMs = await viaService(
      { serviceUrl, headers },
      await copiedEvent(client, tenantId),
      rows,
    );
    console.log(
      `bench bookings: ${SCENARIO}: job ${Math.round(importMs)} ms, raw insert ${Math.round(rawMs)} ms`,
    );
    return [
      tableRow('raw pg multi-row insert', rawMs),
      tableRow('IN14 upload to job done', importMs, rawMs),
    ];
  } catch (err) {
    problems.push(`${SCENARIO}: ${err.message}`);
    return [{ scenario: SCENARIO, target: 'IN14 upload to job done', failed: true }];
  } finally {
    await client.end();
  }
}
