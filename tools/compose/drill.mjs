#!/usr/bin/env node
// Drills on a running compose stack (after `smoke.mjs first <state>`), counting what clients see:
//   node tools/compose/drill.mjs roll <state.json>
//     crm-people scaled to two replicas; under steady load through the gateway (reads and creates)
//     one replica is restarted (`docker restart`), then a new image of crm-people is rolled out one
//     replica at a time while the gateway and the other services keep running. Goal: 0 failed
//     requests, every acknowledged create stored once.
//   node tools/compose/drill.mjs kill <state.json>
//     kill -9 of every crm-people container: the gateway answers 503 for people and 200 for
//     companies; then companies are deleted four at a time and crm-companies is killed -9 in the
//     middle. When Docker has restarted both, every acknowledged deletion has reached crm-people
//     (its business cards let go of the company) and none cut off by the kill half-happened:
//     0 lost.
// Environment as smoke.mjs: GATEWAY_URL, COMPOSE, COMPOSE_PROJECT_NAME.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const COMPOSE = (process.env.COMPOSE ?? 'docker-compose').split(' ').filter(Boolean);
const PROJECT = process.env.COMPOSE_PROJECT_NAME ?? 'crmci';
const started = Date.now();
const say = (text) => console.log(`drill ${((Date.now() - started) / 1000).toFixed(1)}s: ${text}`);
function fail(text) {
  console.error(`drill: FAILED: ${text}`);
  process.exit(1);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const compose = (...args) =>
  run(COMPOSE[0], [...COMPOSE.slice(1), ...args], { maxBuffer: 16 * 2 ** 20 });
const docker = async (...args) =>
  (await run('docker', args, { maxBuffer: 16 * 2 ** 20 })).stdout.trim();

/** Container ids of a compose service, oldest first. */
async function containers(service) {
  const ids = (
    await docker(
      'ps',
      '-q',
      '--filter',
      `label=com.docker.compose.project=${PROJECT}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
    )
  )
    .split('\n')
    .filter(Boolean);
  if (!ids.length) return [];
  const rows = (await docker('inspect', '--format', '{{.Id}} {{.Created}}', ...ids)).split('\n');
  return rows
    .map((r) => r.split(' '))
    .sort((a, b) => a[1].localeCompare(b[1]))
    .map((r) => r[0]);
}

/**
 * kill -9 of a container's process from the host, as the kernel's OOM killer or a crash would end
 * it. (`docker kill` counts as a stop by hand, after which Docker's restart policy does nothing.)
 */
async function crash(id) {
  process.kill(await processOf(id), 'SIGKILL');
}

/** The host pid of a container's process. */
async function processOf(id) {
  const pid = await docker('inspect', '--format', '{{.State.Pid}}', id);
  if (!/^[1-9]\d*$/.test(pid)) fail(`container ${id.slice(0, 12)} has no process (pid ${pid})`);
  return Number(pid);
}

const health = async (id) =>
  docker(
    'inspect',
    '--format',
    '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}',
    id,
  );

async function until(what, seconds, check) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    try {
      if (await check()) return;
      last = 'not yet';
    } catch (err) {
      last = err.message;
    }
    if (Date.now() > deadline) fail(`${what}: not within ${seconds} s (last: ${last})`);
    await sleep(500);
  }
}

/** The last answer of a container's healthcheck (what /health/ready said, or why it failed). */
async function lastProbe(id) {
  try {
    const log = JSON.parse(await docker('inspect', '--format', '{{json .State.Health.Log}}', id));
    const last = Array.isArray(log) ? log.at(-1) : null;
    return last ? `exit ${last.ExitCode} ${String(last.Output).trim()}` : 'no probe yet';
  } catch (err) {
    return err.message;
  }
}

const healthy = (service, count) =>
  until(`${count} healthy ${service}`, 180, async () => {
    const ids = await containers(service);
    const states = await Promise.all(ids.map(health));
    if (states.filter((s) => s === 'running healthy').length >= count) return true;
    // Said when the wait gives up: each container's state and its last probe's answer
    const probes = await Promise.all(ids.map(lastProbe));
    throw new Error(
      ids.map((id, i) => `${id.slice(0, 12)} ${states[i]}: ${probes[i].slice(0, 300)}`).join('; '),
    );
  });

function headers({ tenant, key }) {
  return {
    'X-Integration-Name': 'compose-drill',
    'X-Integration-Provider': 'ci',
    'X-Service-TenantId': tenant,
    'Content-Type': 'application/json',
    Authorization: `Bearer ${key}`,
  };
}

async function call(state, method, path, body) {
  try {
    const res = await fetch(`${GATEWAY}${path}`, {
      method,
      headers: headers(state),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch (err) {
    return { status: 0, body: String(err?.cause?.code ?? err) };
  }
}

/** Clients calling through the gateway until stopped: reads of a person and creates. */
function load(state, marker, clients = 8) {
  const tally = { requests: 0, failed: 0, created: 0, statuses: {} };
  let running = true;
  const one = async (i) => {
    let n = 0;
    while (running) {
      const create = n++ % 4 === 0;
      const res = create
        ? await call(state, 'POST', '/v1/crm/people', { firstname: `c${i}-${n}`, lastname: marker })
        : await call(state, 'GET', `/v1/crm/people/${state.personId}`);
      tally.requests++;
      const ok = create ? res.status === 201 : res.status === 200;
      if (create && ok) tally.created++;
      if (!ok) {
        tally.failed++;
        const k = `${create ? 'POST' : 'GET'} ${res.status}`;
        tally.statuses[k] = (tally.statuses[k] ?? 0) + 1;
      }
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, i) => one(i)));
  return {
    tally,
    stop: async () => {
      running = false;
      await done;
      return tally;
    },
  };
}

/** People stored with `marker` as last name (the creates the drill made), counted by P2's `q`. */
async function storedWith(state, marker) {
  const res = await call(state, 'GET', `/v1/crm/people?q=${marker}&pageSize=1`);
  if (res.status !== 200)
    fail(`listing the drill's people: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.metaData.totalResults;
}

const startedAt = async (service) =>
  Promise.all(
    (await containers(service)).map((id) =>
      docker('inspect', '--format', '{{.State.StartedAt}}', id),
    ),
  );

/** What PostgreSQL logged since `since` about backends that died or a restart (crash recovery). */
async function postgresIncidents(since) {
  const lines = [];
  for (const id of await containers('postgres')) {
    const { stdout, stderr } = await run('docker', ['logs', '--since', since, id], {
      maxBuffer: 64 * 2 ** 20,
    });
    for (const line of `${stdout}\n${stderr}`.split('\n'))
      if (
        /terminated by signal|was terminated|recovery mode|all server processes terminated/i.test(
          line,
        )
      )
        lines.push(line.trim());
  }
  return lines.slice(0, 20);
}

async function roll(state) {
  const drillStarted = new Date().toISOString();
  await compose('up', '-d', '--no-deps', '--no-recreate', '--scale', 'crm-people=2', 'crm-people');
  await healthy('crm-people', 2);
  const others = ['gateway', 'crm-companies', 'events', 'tenant-info', 'bookings-invitations'];
  const before = Object.fromEntries(
    await Promise.all(others.map(async (s) => [s, await startedAt(s)])),
  );
  say('crm-people runs two replicas');

  const marker = `Drill${Date.now().toString(36)}`;
  const traffic = load(state, marker);
  await sleep(2000);
  const [first] = await containers('crm-people');
  say(`docker restart of one replica (${first.slice(0, 12)}) under load`);
  await docker('restart', first);
  await healthy('crm-people', 2);
  await sleep(2000);
  const afterRestart = { ...traffic.tally };
  say(
    `restart: ${afterRestart.requests} requests, ${afterRestart.failed} failed ${JSON.stringify(afterRestart.statuses)}`,
  );

  say('a new image of crm-people (another revision), rolled out one replica at a time');
  await run(
    'docker',
    [
      'build',
      '-q',
      '--build-arg',
      'APP=crm-people',
      '--build-arg',
      `REVISION=drill-${marker}`,
      '-t',
      `crm-events/crm-people:local`,
      '.',
    ],
    { env: { ...process.env, DOCKER_BUILDKIT: '0' }, maxBuffer: 16 * 2 ** 20 },
  );
  const old = await containers('crm-people');
  await compose(
    'up',
    '-d',
    '--no-deps',
    '--no-recreate',
    '--scale',
    `crm-people=${old.length + 1}`,
    'crm-people',
  );
  await healthy('crm-people', old.length + 1);
  for (const id of old) {
    await docker('stop', id); // SIGTERM: readiness first, drain, close
    await docker('rm', id);
    await sleep(1000);
  }
  await compose('up', '-d', '--no-deps', '--no-recreate', '--scale', 'crm-people=2', 'crm-people');
  await healthy('crm-people', 2);
  await sleep(2000);
  const tally = await traffic.stop();
  const revisions = await Promise.all(
    (await containers('crm-people')).map((id) =>
      docker(
        'inspect',
        '--format',
        '{{index .Config.Labels "org.opencontainers.image.revision"}}',
        id,
      ),
    ),
  );
  const after = Object.fromEntries(
    await Promise.all(others.map(async (s) => [s, await startedAt(s)])),
  );
  const stored = await storedWith(state, marker);
  say(
    `roll: ${tally.requests} requests, ${tally.failed} failed ${JSON.stringify(tally.statuses)}; ` +
      `${tally.created} creates acknowledged, ${stored} stored; replicas now at revision ${revisions.join(', ')}`,
  );
  const incidents = await postgresIncidents(drillStarted);
  if (incidents.length) say(`PostgreSQL during the drill:\n  ${incidents.join('\n  ')}`);
  if (tally.failed) fail(`${tally.failed} requests failed during the restart and the rollout`);
  if (stored !== tally.created) fail(`${tally.created} creates acknowledged but ${stored} stored`);
  if (!revisions.every((r) => r === `drill-${marker}`))
    fail(`not every replica runs the new image: ${revisions}`);
  if (JSON.stringify(before) !== JSON.stringify(after))
    fail('the gateway or another service was restarted');
  say('roll passed: 0 failed, nothing doubled, the gateway and the other services untouched');
}

async function kill(state) {
  const n = 40;
  const pairs = [];
  for (let i = 0; i < n; i++) {
    const company = await call(state, 'POST', '/v1/crm/companies', { name: `Drill ${i}` });
    const person = await call(state, 'POST', '/v1/crm/people', {
      firstname: `K${i}`,
      lastname: 'Killed',
    });
    const card = await call(
      state,
      'POST',
      `/v1/crm/people/${person.body?.data?.id}/business-cards`,
      {},
    );
    const link = await call(
      state,
      'PUT',
      `/v1/crm/people/${person.body?.data?.id}/business-cards/${card.body?.data?.id}/company`,
      { companyId: company.body?.data?.id },
    );
    if (link.status !== 200)
      fail(`card ${i} not connected: ${link.status} ${JSON.stringify(link.body)}`);
    pairs.push({
      companyId: company.body.data.id,
      personId: person.body.data.id,
      cardId: card.body.data.id,
    });
  }
  say(`${n} business cards connected to ${n} companies`);

  // The consumer side: with crm-people gone, the deletions wait in JetStream.
  for (const id of await containers('crm-people')) await crash(id);
  say('kill -9 of every crm-people container');
  const people = await call(state, 'GET', `/v1/crm/people/${state.personId}`);
  const companies = await call(state, 'GET', `/v1/crm/companies/${pairs[0].companyId}`);
  say(`while it is down: people ${people.status}, companies ${companies.status}`);
  if (people.status !== 503)
    fail(`people answered ${people.status} while crm-people was down, not 503`);
  if (companies.status !== 200)
    fail(`companies answered ${companies.status} while crm-people was down`);

  // The producer side: crm-companies is killed -9 while deletions are in flight, so some are
  // acknowledged with their events still in its outbox and some are cut off.
  const outcome = new Map();
  const victims = await Promise.all((await containers('crm-companies')).map(processOf));
  let next = 0;
  let acked = 0;
  const deleter = async () => {
    while (next < n) {
      const p = pairs[next++];
      const res = await call(state, 'DELETE', `/v1/crm/companies/${p.companyId}`);
      outcome.set(p.companyId, res.status);
      if ((res.status === 200 || res.status === 204) && ++acked === n / 4)
        for (const pid of victims) process.kill(pid, 'SIGKILL');
    }
  };
  await Promise.all([deleter(), deleter(), deleter(), deleter()]);
  const acknowledged = [...outcome.values()].filter((s) => s === 200 || s === 204).length;
  const other = {};
  for (const s of outcome.values()) if (s !== 200 && s !== 204) other[s] = (other[s] ?? 0) + 1;
  say(
    `kill -9 of crm-companies during the deletions: ${acknowledged} acknowledged, ` +
      `others ${JSON.stringify(other)}`,
  );
  if (Object.keys(other).some((s) => s !== '503' && s !== '404'))
    fail(
      `a deletion cut off by the kill answered something else than 503: ${JSON.stringify(other)}`,
    );

  await healthy('crm-people', 1);
  await healthy('crm-companies', 1);
  say('Docker restarted both');

  // Every company is now either gone or still there, whatever its deletion answered; a gone
  // company must have left every card (0 lost), one still there must keep its card.
  const gone = new Set();
  for (const p of pairs) {
    const res = await call(state, 'GET', `/v1/crm/companies/${p.companyId}`);
    if (res.status === 404) gone.add(p.companyId);
    else if (res.status !== 200) fail(`company ${p.companyId} answered ${res.status}`);
    else if ([200, 204].includes(outcome.get(p.companyId)))
      fail(`company ${p.companyId} is still there although its deletion was acknowledged`);
  }
  const leftOver = pairs.filter((p) => !gone.has(p.companyId));
  for (const p of leftOver) {
    const del = await call(state, 'DELETE', `/v1/crm/companies/${p.companyId}`);
    if (![200, 204].includes(del.status))
      fail(`delete company after the restart: ${del.status} ${JSON.stringify(del.body)}`);
  }
  say(
    `${gone.size} companies gone after the kill, ${leftOver.length} cut off before the commit ` +
      'and deleted again',
  );
  let disconnected = 0;
  await until('every card let go of its deleted company', 180, async () => {
    disconnected = 0;
    for (const p of pairs) {
      const card = await call(
        state,
        'GET',
        `/v1/crm/people/${p.personId}/business-cards/${p.cardId}`,
      );
      if (card.status === 200 && card.body.data.companyId === null) disconnected++;
    }
    return disconnected === n;
  });
  say(`kill passed: ${disconnected} of ${n} company deletions reached crm-people, 0 lost`);
}

const [mode, stateFile] = process.argv.slice(2);
const modes = { roll, kill };
if (!modes[mode] || !stateFile) {
  console.error('usage: node tools/compose/drill.mjs roll|kill <state.json>');
  process.exit(2);
}
modes[mode](JSON.parse(readFileSync(stateFile, 'utf8'))).catch((err) =>
  fail(err?.stack ?? String(err)),
);
