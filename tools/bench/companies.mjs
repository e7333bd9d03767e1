// npm run bench -- companies: searching 100,000 companies of one tenant,
// GET /v1/crm/companies?q=TERM&page=N&pageSize=50 (TERM one of 20 name parts, each in ~5% of the
// names; N random in 1..BENCH_MAX_PAGE, default 5) (1) through the gateway, (2) directly at
// crm-companies and (3) against a raw baseline (node:http + pg running the same trigram-indexed
// ILIKE page query with a count, no e-mails, phones or tags), in one run. Every target requests the
// same sequence. Prints requests/s, p50 and p99 per target and the ratios.
// Settings: BENCH_DURATION, BENCH_CONNECTIONS, BENCH_COMPANIES (default 100000), BENCH_MAX_PAGE,
// BENCH_DATABASE_SERVER (default DATABASE_URL's server or postgresql://postgres@127.0.0.1:5432/postgres), NATS_URL.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connections, freePort, measure, rng } from './measure.mjs';
import { SEARCH_TERMS, seedCompanies } from './seed-companies.mjs';
import { benchDbName, benchServer, recreateDatabase, startBenchStack } from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const companies = Number(process.env.BENCH_COMPANIES ?? 100_000);
const maxPage = Number(process.env.BENCH_MAX_PAGE ?? 5);
const pageSize = 50;
const TENANT = 'bench-companies';

// The expression of the migration's trigram index (Company_search_idx), as the service queries it.
const SEARCH = `lower(coalesce("name", '') || ' ' || coalesce("nameAddition", '') || ' ' || coalesce("customerNumber", '') || ' ' || coalesce("websiteDomain", ''))`;
const PAGE_SQL = `SELECT * FROM "Company" WHERE "tenantId" = $1 AND ${SEARCH} LIKE $2
  ORDER BY "name" ASC, "id" ASC LIMIT $3 OFFSET $4`;
const COUNT_SQL = `SELECT count(*)::int AS n FROM "Company" WHERE "tenantId" = $1 AND ${SEARCH} LIKE $2`;

const pathOf = (term, page) => `/v1/crm/companies?q=${term}&page=${page}&pageSize=${pageSize}`;

function requestSequence() {
  const rand = rng(7);
  return () =>
    pathOf(
      SEARCH_TERMS[Math.floor(rand() * SEARCH_TERMS.length)],
      1 + Math.floor(rand() * maxPage),
    );
}

/** The floor: the same page and count queries in the envelope, no framework. */
async function startRawSearchBaseline(port, connectionString) {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const srv = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://raw');
      const like = `%${(url.searchParams.get('q') ?? '').toLowerCase()}%`;
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const tenant = req.headers['x-service-tenantid'];
      const [rows, count] = await Promise.all([
        pool.query(PAGE_SQL, [tenant, like, pageSize, (page - 1) * pageSize]),
        pool.query(COUNT_SQL, [tenant, like]),
      ]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: rows.rows,
          message: null,
          metaData: { totalResults: count.rows[0].n, responseTimeStamp: new Date().toISOString() },
          statusCode: 200,
        }),
      );
    } catch (err) {
      res.writeHead(500);
      res.end(String(err));
    }
  });
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  return {
    name: 'raw-search',
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise((r) => srv.close(r));
      await pool.end();
    },
  };
}

/** One request per target before measuring: every answer must be the same page. */
async function check(targets) {
  const bodies = [];
  for (const t of targets) {
    const res = await fetch(`${t.url}${pathOf(SEARCH_TERMS[3], 2)}`, { headers: t.headers });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${t.name}: ${res.status} ${JSON.stringify(body)}`);
    if (body.data.length !== pageSize) throw new Error(`${t.name}: ${body.data.length} results`);
    bodies.push(`${body.metaData.totalResults}:${body.data.map((c) => c.id).join()}`);
  }
  if (new Set(bodies).size !== 1) throw new Error('the targets answer different pages');
}

export async function main() {
  console.log('bench companies: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const db = (name, svc) => recreateDatabase(benchServer(), benchDbName(`search_${name}`), svc);
  const companiesDb = await db('crm_companies', 'crm-companies');
  const peopleDb = await db('crm_people', 'crm-people');
  const tenantDb = await db('tenant_info', 'tenant-info');
  const started = Date.now();
  await seedCompanies(companiesDb, TENANT, companies);
  console.log(
    `bench companies: seeded ${companies} companies in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const ports = {
    gateway: await freePort(),
    people: await freePort(),
    companies: await freePort(),
    tenant: await freePort(),
  };
  const stack = await startBenchStack({ peopleDb, companiesDb, tenantDb, ports, tenantId: TENANT });
  const { key, headers, internalToken } = stack;
  try {
    const raw = await startRawSearchBaseline(await freePort(), companiesDb);
    stack.add(raw);
    const targets = [
      {
        name: 'gateway',
        url: stack.gatewayUrl,
        headers: { authorization: `Bearer ${key}`, ...headers },
      },
      {
        name: 'direct crm-companies',
        url: stack.companiesUrl,
        headers: { 'x-internal-token': internalToken, ...headers },
      },
      { name: 'raw node:http + pg', url: raw.url, headers },
    ];
    await check(targets);
    console.log(
      `bench companies: ${connections} connections, GET ${pathOf('TERM', 'N')}, TERM one of ${SEARCH_TERMS.length}, N random in 1..${maxPage}`,
    );
    await measure(targets, requestSequence);
  } finally {
    await stack.stop();
  }
}
