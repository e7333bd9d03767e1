#!/usr/bin/env node
// Smoke test of a running compose stack, through its published ports, as a new user would go:
//   node tools/compose/smoke.mjs wait                 every container healthy (or done, exit 0)
//   node tools/compose/smoke.mjs first <state.json>   tenant and key (admin tool in the gateway
//        container), a person created and read, GraphQL, an event with a ticket type published,
//        a public booking and its confirmation mail at the mailbox, the docs page
//   node tools/compose/smoke.mjs again <state.json>   after `down` and `up`: the same data answers
// Environment: GATEWAY_URL, MAILBOX_URL, COMPOSE (the compose command, e.g. "docker-compose -p x").
// Prints one line per step; exits 1 at the first step that fails, saying what it got.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
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

async function call(method, path, { tenant, key, body, expect = [200, 201] } = {}) {
  const res = await fetch(`${GATEWAY}${path}`, {
    method,
    headers: headers(tenant, key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
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
  const out = await compose('exec', '-T', 'gateway', 'node', 'tools/admin.mjs', ...args);
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

  const person = await call('POST', '/v1/crm/people', {
    tenant,
    key,
    body: { firstname: 'Ada', lastname: 'Lovelace' },
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
  writeFileSync(
    stateFile,
    JSON.stringify({ tenant, key, personId, bookingId: booking.id, eventId }),
  );
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
