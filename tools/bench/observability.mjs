// npm run bench -- observability: what request lines, request metrics and the request context
// cost (issue 22's goal: every ratio within 5 %). A core stack (tenant-info, crm-people,
// crm-companies, gateway) for the tenant, its key and its data; beside it two sides started
// alike, each a crm-people on the stack's database and a gateway in front of it: one observed
// (the default), one with REQUEST_OBSERVATION=off. The two targets of each pair are measured in
// the same rounds (benchAll), so both see the same machine: observed / unobserved is the cost.
// BENCH_AA=1 observes both sides: the ratios then show what the bench's own bias is. A third
// side, observed and tracing every request to a trace catcher (tools/dev/traces.mjs, a process
// of its own), shows what OpenTelemetry costs when it is switched on (no goal: it is off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set; BENCH_TRACES=0 leaves it out; OTEL_TRACES_SAMPLER=
// parentbased_traceidratio OTEL_TRACES_SAMPLER_ARG=0.05 measures it sampling a share). The pairs: the health
// route (the lightest request, where a fixed cost shows most), a person read with cards and
// relations, a create with the seed's full body (direct), and the read through the gateway.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchAll, connections, duration, freePort, printResults, row } from './measure.mjs';
import { personBody } from './scenarios/people.mjs';
import {
  apiClient,
  benchDbName,
  benchServer,
  recreateDatabase,
  secret,
  startApp,
  startBenchStack,
} from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GOAL = 0.95;

/** The development trace catcher as its own process on a free port: `{ url, stop }`. */
async function startTraceCatcherProcess() {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(root, 'tools/dev/traces.mjs'), '--port', String(port)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (b) => b.toString().includes('traces: OTLP') && resolve());
    child.once('exit', (code) => reject(new Error(`the trace catcher exited (${code})`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function main() {
  console.log('bench: building');
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const server = benchServer();
  const db = (name, service) => recreateDatabase(server, benchDbName(name), service);
  const peopleDb = await db('crm_people', 'crm-people');
  const companiesDb = await db('crm_companies', 'crm-companies');
  const tenantDb = await db('tenant_info', 'tenant-info');
  const ports = {
    gateway: await freePort(),
    people: await freePort(),
    companies: await freePort(),
    tenant: await freePort(),
  };
  const stack = await startBenchStack({
    peopleDb,
    companiesDb,
    tenantDb,
    ports,
    tenantId: 'bench',
  });
  const rows = [];
  try {
    const service = {
      NATS_URL: stack.natsUrl,
      INTERNAL_TOKEN: stack.internalToken,
      HOST: '127.0.0.1',
    };
    // Both sides started alike, outside the stack: the stack's own crm-people also serves the
    // gateway's and the other services' background calls, and measured against a fresh one it
    // read 0.91 with both sides observed (BENCH_AA=1 below).
    const side = async (mode, extraEnv = {}) => {
      const env = { ...service, REQUEST_OBSERVATION: mode, ...extraEnv };
      const people = await startApp('crm-people', await freePort(), {
        ...env,
        DATABASE_URL: peopleDb,
      });
      stack.add(people);
      const gatewayPort = await freePort();
      const gateway = await startApp('gateway', gatewayPort, {
        ...env,
        ADMIN_TOKEN: secret(),
        CRM_PEOPLE_URL: people.url,
        CRM_COMPANIES_URL: stack.companiesUrl,
        TENANT_INFO_URL: `http://127.0.0.1:${ports.tenant}`,
        GRAPHQL_SUBGRAPHS: 'crm-people,tenant-info,crm-companies',
        KEY_RATE_LIMIT_PER_MINUTE: '1000000000',
      });
      stack.add(gateway);
      return {
        people: people.url,
        gateway: `http://127.0.0.1:${gatewayPort}`,
        pids: { people: [people.child.pid], gateway: [people.child.pid, gateway.child.pid] },
      };
    };
    // BENCH_AA=1: both sides observed, to see that the bench itself favours neither (ratios ~1)
    const sides = {
      on: await side('on'),
      off: await side(process.env.BENCH_AA === '1' ? 'on' : 'off'),
    };
    const withTraces = process.env.BENCH_TRACES !== '0';
    const sampler = process.env.OTEL_TRACES_SAMPLER;
    const tracedName = `traced (${sampler ? `${sampler} ${process.env.OTEL_TRACES_SAMPLER_ARG ?? ''}`.trim() : 'every call'})`;
    if (withTraces) {
      const catcher = await startTraceCatcherProcess();
      stack.add(catcher);
      // exported in the SDK's default batches; every request sampled (the SDK's default) unless
      // the bench runs with OTEL_TRACES_SAMPLER(_ARG), which the apps inherit
      sides.traced = await side('on', { OTEL_EXPORTER_OTLP_ENDPOINT: catcher.url });
    }
    console.log(
      `bench: ${connections} connections, 2 s warm-up and ${duration} s per target; observed ` +
        `apps vs the same build with REQUEST_OBSERVATION=${process.env.BENCH_AA === '1' ? 'on (BENCH_AA=1)' : 'off'}, measured in turns`,
    );
    const api = apiClient(stack.gatewayUrl, stack.gatewayHeaders);
    const [lifecycle] = await api('POST', '/v1/crm/people-settings/lifecycles', [
      { text: 'Bench customer', color: '#336699' },
    ]);
    const person = await api('POST', '/v1/crm/people', personBody(lifecycle.id));
    await api('POST', `/v1/crm/people/${person.id}/business-cards`, {
      business: 'Bench Works',
      emails: [{ type: { id: 'business', text: 'Business' }, mail: 'bench@example.com' }],
    });

    // Beside each ratio, what it comes from: the CPU the side's processes (crm-people, and its
    // gateway for the gateway pair) used per request while measured. Far steadier than req/s on a
    // shared machine, so a change of a few µs shows before it shows in a ratio.
    const cpuRows = [];
    // BENCH_OBS_PAIRS=o3 (or o1,o4): some pairs only, e.g. under BENCH_CPU_PROFILE
    const only = process.env.BENCH_OBS_PAIRS?.split(',');
    const pair = async (scenario, target, processes = 'people') => {
      if (only && !only.includes(scenario.split(' ')[0])) return;
      const at = (name, mode) => ({ ...target(name, mode), pids: sides[mode].pids[processes] });
      const [observed, unobserved, traced] = await benchAll(scenario, [
        { t: at('observed', 'on') },
        { t: at('REQUEST_OBSERVATION=off', 'off') },
        ...(withTraces ? [{ t: at(tracedName, 'traced') }] : []),
      ]);
      rows.push(row(scenario, unobserved), row(scenario, observed, unobserved, GOAL));
      if (traced) rows.push(row(scenario, traced, unobserved));
      if (unobserved.failed) return; // nothing to compare the CPU with
      const base = unobserved.cpuMicrosPerRequest;
      for (const m of [unobserved, observed, traced].filter((x) => x && !x.failed)) {
        const us = m.cpuMicrosPerRequest;
        cpuRows.push({
          scenario,
          target: m.name,
          'CPU µs / request': us.toFixed(1),
          'vs off':
            m === unobserved ? '' : `${us - base >= 0 ? '+' : ''}${(us - base).toFixed(1)} µs`,
        });
      }
    };
    // A tenant's call on each side first, as every process in use has served: the first one
    // switches on the promise hooks of AsyncLocalStorage (the tenant scope), which a side that
    // had answered only /health/live would not pay.
    for (const mode of Object.keys(sides)) {
      const res = await fetch(`${sides[mode].people}/v1/crm/people/${person.id}`, {
        headers: stack.serviceHeaders,
      });
      if (!res.ok) throw new Error(`the ${mode} side answered ${res.status}`);
    }
    await stack.waitQuiet('before the pairs');
    await pair('o1 GET /health/live (crm-people)', (name, mode) => ({
      name,
      url: sides[mode].people,
      path: '/health/live',
      headers: {},
    }));
    await pair('o2 GET /v1/crm/people/{id} (direct)', (name, mode) => ({
      name,
      url: sides[mode].people,
      path: `/v1/crm/people/${person.id}`,
      headers: stack.serviceHeaders,
    }));
    await pair('o3 POST /v1/crm/people (direct)', (name, mode) => ({
      name,
      url: sides[mode].people,
      method: 'POST',
      path: '/v1/crm/people',
      body: personBody(lifecycle.id),
      headers: stack.serviceHeaders,
    }));
    await stack.waitQuiet('before the gateway pair');
    await pair(
      'o4 GET /v1/crm/people/{id} (gateway)',
      (name, mode) => ({
        name,
        url: sides[mode].gateway,
        path: `/v1/crm/people/${person.id}`,
        headers: stack.gatewayHeaders,
      }),
      'gateway',
    );
    console.log(
      "bench: the CPU of each side's crm-people (and its gateway, for the gateway pair) per request, while measured",
    );
    console.table(cpuRows);
  } finally {
    await stack.stop();
  }
  printResults(rows);
}
