#!/usr/bin/env node
// Smoke test of a running compose stack, through its published ports, as a new user would go:
//   node tools/compose/smoke.mjs wait                 every container healthy (or done, exit 0)
//   node tools/compose/smoke.mjs first <state.json>   tenant and key (admin tool in the gateway
//        container), a person created and read, GraphQL, an event with a ticket type published,
//        a public booking and its confirmation mail at the mailbox, the docs page; the JSON log
//        lines of one call in the gateway's and crm-people's output; a real Prometheus on the
//        compose network with deploy/monitoring/prometheus.yml scraping every app; with
//        TRACES_URL, a company's deletion as one trace at the trace catcher
//   node tools/compose/smoke.mjs again <state.json>   after `down` and `up`: the same data answers
// Environment: GATEWAY_URL, MAILBOX_URL, TRACES_URL, COMPOSE (the compose command, e.g. "docker-compose -p x").
// Prints one line per step; exits 1 at the first step that fails, saying what it got.
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const MAILBOX = process.env.MAILBOX_URL ?? 'http://127.0.0.1:8025';
const COMPOSE = (process.env.COMPOSE ?? 'docker-compose').split(' ').filter(Boolean);
const started = Date.now();

const step = (text) => console.log(`smoke ${((Date.now() - started) / 1000).toFixed(1)}s: ${text}`);
function fail(text) {
  console.error(`smoke: FAILED: ${text}`);
  process.exit(1);
}

const compose = async (...args) => {
  const { stdout } = await run(COMPOSE[0], [...COMPOSE.slice(1), ...args], {
    maxBuffer: 16 * 2 ** 20,
  });
  return stdout;
};

/** Polls `check` (truthy = done) until `seconds` pass; the last error or value is reported. */
async function until(what, seconds, check) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = 'not yet';
    } catch (err) {
      last = err.message;
    }
    if (Date.now() > deadline) fail(`${what}: not within ${seconds} s (last: ${last})`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Every container of the project: running and healthy where it has a healthcheck, else exited 0. */
async function waitHealthy() {
  const t0 = Date.now();
  const states = await until(
    'every container healthy',
    Number(process.env.SMOKE_WAIT_S ?? 420),
    async () => {
      const ids = (await compose('ps', '-q')).split('\n').filter(Boolean);
      if (!ids.length) throw new Error('no containers');
      const { stdout } = await run('docker', [
        'inspect',
        '--format',
        '{{.Name}} {{.State.Status}} {{.State.ExitCode}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}} {{.RestartCount}}',
        ...ids,
      ]);
      const rows = stdout
        .trim()
        .split('\n')
        .map((l) => l.split(' '));
      for (const [name, status, code, health, restarts] of rows) {
        if (status === 'exited' && code !== '0') fail(`${name} exited with code ${code}`);
        // a crash loop does not heal by waiting: say so now, not when the wait runs out
        if (Number(restarts) >= 2) fail(`${name} keeps restarting (${restarts} restarts)`);
        if (status === 'exited') continue;
        if (status !== 'running' || (health !== 'none' && health !== 'healthy'))
          throw new Error(`${name} ${status} ${health}`);
      }
      return rows;
    },
  );
  const restarts = states.filter((r) => r[4] !== '0');
  if (restarts.length) fail(`containers restarted: ${restarts.map((r) => r.join(' ')).join('; ')}`);
  step(`${states.length} containers healthy or done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

const headers = (tenant, key) => ({
  'X-Integration-Name': 'compose-smoke',
  'X-Integration-Provider': 'ci',
  'X-Service-TenantId': tenant,
  'Content-Type': 'application/json',
  ...(key ? { Authorization: `Bearer ${key}` } : {}),
});

/**
 * A 503 is the stack saying "not now" (a database in crash recovery answers 57P03 and the
 * services pass that on as 503): a client waits and asks again, for up to 90 s, and says so.
 * Seen once in CI: the stand-in PostgreSQL lost a backend (signal 13) just as the smoke began.
 */
async function patiently(what, attempt) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const outcome = await attempt();
    if (!outcome.unavailable || Date.now() > deadline) return outcome;
    step(`${what}: 503 (${outcome.reason.slice(0, 160)}), asking again in 2 s`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

async function call(method, path, { tenant, key, body, requestId, expect = [200, 201] } = {}) {
  const { res, text } = await patiently(`${method} ${path}`, async () => {
    const res = await fetch(`${GATEWAY}${path}`, {
      method,
      headers: { ...headers(tenant, key), ...(requestId ? { 'X-Request-Id': requestId } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { res, text, unavailable: res.status === 503 && !expect.includes(503), reason: text };
  });
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  if (!expect.includes(res.status)) fail(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
  return json;
}

async function admin(...args) {
  const { out, error } = await patiently(`admin ${args[0]}`, async () => {
    try {
      return { out: await compose('exec', '-T', 'gateway', 'node', 'tools/admin.mjs', ...args) };
    } catch (err) {
      const reason = `${err.stderr ?? ''}${err.stdout ?? ''}` || err.message;
      return {
        error: err,
        unavailable: /\b503\b|unavailable|did not answer|cannot be used at the moment/i.test(
          reason,
        ),
        reason,
      };
    }
  });
  if (error) throw error;
  return JSON.parse(out);
}

const inDays = (days, hour) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

async function first(stateFile) {
  const tenant = `smoke${Date.now().toString(36)}`;
  await admin('create-tenant', tenant, 'Smoke Ltd', '--email', 'ops@smoke.example');
  await admin('set-tariff', tenant, 'complete');
  const issued = await admin('issue-key', tenant, 'compose smoke');
  const key = issued.key ?? issued.apiKey ?? issued.secret;
  if (!key) fail(`issue-key printed no key: ${JSON.stringify(issued)}`);
  step(`tenant ${tenant} with a key (admin tool in the gateway container)`);

  const createRequestId = `smoke-${randomUUID()}`;
  const person = await call('POST', '/v1/crm/people', {
    tenant,
    key,
    body: { firstname: 'Ada', lastname: 'Lovelace' },
    requestId: createRequestId,
  });
  const personId = person.data.id;
  const read = await call('GET', `/v1/crm/people/${personId}`, { tenant, key });
  if (read.data.lastname !== 'Lovelace') fail(`person read back: ${JSON.stringify(read)}`);
  step(`person ${personId} created and read`);

  const gql = await call('POST', '/graphql', {
    tenant,
    key,
    body: {
      query: 'query ($id: ID!) { person(id: $id) { id lastname } }',
      variables: { id: personId },
    },
  });
  if (gql.data?.person?.lastname !== 'Lovelace') fail(`GraphQL: ${JSON.stringify(gql)}`);
  step('GraphQL query answered');

  const site = await call('POST', '/v1/crm/websites', {
    tenant,
    key,
    body: { name: 'Portal', url: `https://${tenant}.example.com/`, language: 'en' },
  });
  const event = await call('POST', '/v1/crm/events', {
    tenant,
    key,
    body: {
      title: 'Compose gala',
      startsAt: inDays(30, 18),
      endsAt: inDays(30, 21),
      timeZone: 'Europe/Berlin',
      capacity: 100,
      taxRateId: 'de-standard',
      venue: { name: 'Hall', city: 'Berlin' },
      status: 'scheduled',
    },
  });
  const eventId = event.data.id;
  const type = await call('POST', '/v1/crm/tickets', {
    tenant,
    key,
    body: { eventId, name: 'Seat', price: '119', currency: 'EUR', quota: 10 },
  });
  await call('PUT', `/v1/crm/events/${eventId}/publication`, {
    tenant,
    key,
    body: { published: true, websiteIds: [site.data.id] },
  });
  step(`event ${eventId} with a ticket type, published`);

  const email = `buyer-${randomUUID().slice(0, 8)}@smoke.example`;
  const booking = await until(
    'public booking (the publication reaches bookings over NATS)',
    60,
    async () => {
      const res = await fetch(`${GATEWAY}/v1/crm/bookings/public`, {
        method: 'POST',
        headers: headers(tenant),
        body: JSON.stringify({
          eventId,
          booker: { firstname: 'Grace', lastname: 'Hopper', email },
          tickets: [
            { ticketTypeId: type.data.id, participant: { firstname: 'Grace', lastname: 'Hopper' } },
          ],
        }),
      });
      const body = await res.json();
      if (res.status === 201) return body.data;
      throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    },
  );
  step(`public booking ${booking.id} (${booking.invoiceNumber})`);

  const mail = await until('confirmation mail at the mailbox', 120, async () => {
    const res = await fetch(`${MAILBOX}/mails.json`);
    const mails = await res.json();
    // `to` as the mailbox lists it: the header's text, e.g. "Grace Hopper" <buyer-1@smoke.example>
    return mails.find((m) => String(m.to).includes(email));
  });
  step(`confirmation mail "${mail.subject}" with ${mail.attachments.length} attachment(s)`);

  const docs = await fetch(`${GATEWAY}/docs`);
  if (docs.status !== 200) fail(`/docs: ${docs.status}`);
  step('docs page');
  await logLines(createRequestId, key);
  await traces(tenant, key);
  await prometheus();
  writeFileSync(
    stateFile,
    JSON.stringify({ tenant, key, personId, bookingId: booking.id, eventId }),
  );
}

/**
 * The apps' output as an operator's collector reads it: JSON lines, the person create found by
 * its X-Request-Id in the gateway's and crm-people's lines, the API key in none.
 */
async function logLines(requestId, key) {
  // the apps write their lines in batches (at most 200 ms late): read again until both are there
  const lines = await until(`the request lines of ${requestId}`, 15, async () => {
    const text = await compose('logs', '--no-color', 'gateway', 'crm-people');
    if (text.includes(key)) fail('the API key is in the logs');
    const parsed = text
      .split('\n')
      .filter((l) => l.includes('{'))
      .map((l) => {
        try {
          return JSON.parse(l.slice(l.indexOf('{')));
        } catch {
          fail(`a log line is not JSON: ${l.slice(0, 300)}`);
        }
      });
    const ofCall = parsed.filter((l) => l.requestId === requestId && l.msg === 'request');
    for (const app of ['gateway', 'crm-people']) {
      const line = ofCall.find((l) => l.app === app);
      if (!line || line.status !== 201 || typeof line.durationMs !== 'number' || !line.time)
        throw new Error(`no request line of ${app}: ${JSON.stringify(ofCall)}`);
    }
    return parsed;
  });
  step(`${lines.length} JSON log lines; the create's request id in the gateway's and crm-people's`);
}

/**
 * With TRACES_URL (the `traces` profile, the apps exporting to it): a company's deletion is one
 * trace at the trace catcher, from the gateway through crm-companies and its outbox relay to
 * crm-people's consumer, with the tenant on it.
 */
async function traces(tenant, key) {
  const url = process.env.TRACES_URL;
  if (!url) return step('traces: skipped (no TRACES_URL)');
  const company = await call('POST', '/v1/crm/companies', {
    tenant,
    key,
    body: { name: 'Traced GmbH' },
  });
  await call('DELETE', `/v1/crm/companies/${company.data.id}`, { tenant, key });
  const wanted = ['gateway', 'crm-companies', 'crm-people'];
  const trace = await until(
    'the trace of a company deletion at the trace catcher',
    60,
    async () => {
      const res = await fetch(`${url}/traces.json?name=consume%20crm-companies.companies.deleted`);
      const list = await res.json();
      const found = list.find(
        (t) => t.tenant === tenant && wanted.every((s) => t.services.includes(s)),
      );
      if (!found) throw new Error(`traces so far: ${JSON.stringify(list).slice(0, 400)}`);
      return found;
    },
  );
  if (!trace.root.startsWith('gateway: DELETE')) fail(`trace root: ${JSON.stringify(trace)}`);
  step(`trace of a company deletion: ${trace.spans} spans of ${trace.services.join(', ')}`);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/**
 * deploy/monitoring/prometheus.yml as its comment says to run it: a Prometheus on the compose
 * network with the secrets volume (the internal token as the bearer credential). Debian's
 * prometheus binary in the node image (both Debian bookworm): no registry is needed. Every target
 * up, the alert rules loaded, and the smoke's own calls counted.
 */
async function prometheus() {
  const binary = '/usr/bin/prometheus';
  if (!existsSync(binary)) fail(`${binary} is missing: apt-get install prometheus (Debian)`);
  const project = process.env.COMPOSE_PROJECT_NAME;
  if (!project) fail('COMPOSE_PROJECT_NAME is not set (tools/compose/ci.sh sets it)');
  const port = await freePort();
  const name = `${project}-prometheus-smoke`;
  await run('docker', ['rm', '-f', name]).catch(() => undefined);
  // removed whichever way the smoke ends (fail() exits at once): it holds the secrets volume
  const remove = () => {
    try {
      execFileSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
    } catch {
      // gone already
    }
  };
  process.once('exit', remove);
  await run('docker', [
    'run', '-d', '--name', name, '--user', 'root',
    '--network', `${project}_default`,
    '-p', `127.0.0.1:${port}:9090`,
    '-v', `${binary}:/bin/prometheus:ro`,
    '-v', `${path.join(root, 'deploy/monitoring')}:/etc/prometheus:ro`,
    '-v', `${project}_crm-secrets:/run/crm-secrets:ro`,
    '--entrypoint', '/bin/prometheus',
    'node:22-bookworm-slim',
    '--config.file=/etc/prometheus/prometheus.yml',
    '--storage.tsdb.path=/tmp/prometheus',
    '--web.listen-address=0.0.0.0:9090',
  ]); // prettier-ignore
  const query = async (promql) => {
    const res = await fetch(
      `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`,
    );
    const body = await res.json();
    if (body.status !== 'success') throw new Error(`${promql}: ${JSON.stringify(body)}`);
    return body.data.result;
  };
  try {
    const config = readFileSync(path.join(root, 'deploy/monitoring/prometheus.yml'), 'utf8');
    const targets = [...config.matchAll(/^\s+- ([a-z-]+:\d+)$/gm)].map((m) => m[1]);
    const up = await until('every target of prometheus.yml scraped', 120, async () => {
      const rows = await query('up{job="crm"}');
      const ok = rows.filter((r) => r.value[1] === '1').map((r) => r.metric.instance);
      if (ok.length < targets.length)
        throw new Error(`up: ${ok.sort().join(', ') || 'none'} of ${targets.length}`);
      return ok;
    });
    const rules = await (await fetch(`http://127.0.0.1:${port}/api/v1/rules`)).json();
    const alerts = rules.data.groups.flatMap((g) => g.rules).length;
    if (!alerts) throw new Error(`no alert rules loaded: ${JSON.stringify(rules).slice(0, 300)}`);
    // crm-people names the route by its template; the gateway's proxy by the path's prefix
    const created = await query(
      'sum by (app) (http_request_duration_seconds_count{method="POST",' +
        'route=~"/v1/crm/people|/v1/crm/[*]|/v1/crm/people/[*]"})',
    );
    const apps = created.filter((r) => Number(r.value[1]) >= 1).map((r) => r.metric.app);
    if (!apps.includes('gateway') || !apps.includes('crm-people'))
      throw new Error(`the person create is not counted: ${JSON.stringify(created)}`);
    step(
      `Prometheus (deploy/monitoring): ${up.length} targets up, ${alerts} rules, the create counted`,
    );
  } catch (err) {
    const { stdout, stderr } = await run('docker', ['logs', '--tail', '20', name]).catch(() => ({
      stdout: '',
      stderr: '',
    }));
    fail(`Prometheus: ${err.message}\n${stdout}${stderr}`);
  }
  remove();
}

async function again(stateFile) {
  const { tenant, key, personId, eventId } = JSON.parse(readFileSync(stateFile, 'utf8'));
  const read = await call('GET', `/v1/crm/people/${personId}`, { tenant, key });
  if (read.data.lastname !== 'Lovelace') fail(`person after restart: ${JSON.stringify(read)}`);
  const bookings = await call('GET', `/v1/crm/bookings?eventId=${eventId}`, { tenant, key });
  if (!(bookings.data?.length >= 1)) fail(`bookings after restart: ${JSON.stringify(bookings)}`);
  step('after down and up: the tenant, its key, the person and the booking are still there');
}

const [mode, stateFile] = process.argv.slice(2);
const modes = { wait: waitHealthy, first: () => first(stateFile), again: () => again(stateFile) };
if (!modes[mode] || (mode !== 'wait' && !stateFile)) {
  console.error(
    'usage: node tools/compose/smoke.mjs wait | first <state.json> | again <state.json>',
  );
  process.exit(2);
}
modes[mode]().catch((err) => fail(err?.stack ?? String(err)));
