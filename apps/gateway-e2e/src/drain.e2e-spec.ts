import { randomUUID } from 'node:crypto';
import { runSql, StackProcess } from '@crm/testing';
import { Answer, Client, SERVICES, startIsolatedClient, TestTenant } from './client';

// Issue 23, drain: two replicas of crm-people behind the gateway (one host name, two addresses,
// as `docker compose --scale` gives), steady mixed load of reads and creates (REST and GraphQL)
// from 12 clients, and SIGTERM to one replica in the middle of it. The load goes on until that replica has exited and
// past it. Every call must answer 2xx (readiness goes 503 first and the gateway moves away, calls
// in flight finish, no call lands on a closing server), and every create is stored exactly once.
// The test waits for states (answers counted, the process's exit), never for a time.

jest.setTimeout(240_000);

const CLIENTS = 12;
/** Answers before the SIGTERM, and after the replica's exit, each at least. */
const ANSWERS_AROUND = 150;
/** The drain as production has it (5 s there): readiness 503 while still serving. */
const DRAIN_MS = '2000';

let client: Client;
let tenant: TestTenant;
let victim: StackProcess;

beforeAll(async () => {
  client = await startIsolatedClient(
    'drain',
    SERVICES.filter((s) => s !== 'crm-companies'),
    { SHUTDOWN_DRAIN_MS: DRAIN_MS },
    { 'crm-people': 2 },
  );
  tenant = await client.tenant();
  victim = client.stack.processes.get('crm-people-2')!;
}, 180_000);
afterAll(async () => {
  await client?.stack.shutdown();
}, 60_000);

interface Call {
  what: string;
  status: number;
  /** 2xx, and for GraphQL without errors. */
  ok: boolean;
  /** When it was answered: before the SIGTERM, during the drain, after the exit. */
  phase: 'before' | 'draining' | 'exited';
  body?: unknown;
}

/** Resolves once `check` holds; polled, with the reason on timeout. */
async function waitFor(what: string, check: () => boolean, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('SIGTERM to a replica under load: 0 failed calls, every create stored once', async () => {
  const run = randomUUID().slice(0, 8);
  const calls: Call[] = [];
  const created: string[] = [];
  const sent: string[] = [];
  let phase: Call['phase'] = 'before';
  let loading = true;
  let seq = 0;

  const record = (what: string, res: Answer) => {
    // a GraphQL answer with errors failed too, whatever its status
    const ok = res.status >= 200 && res.status < 300 && !res.body?.errors;
    calls.push({
      what,
      status: ok ? res.status : res.status || 0,
      ok,
      phase,
      body: ok ? undefined : res.body,
    });
  };
  const fail = (what: string, err: unknown) =>
    calls.push({ what, status: 0, ok: false, phase, body: String(err) });

  // Per client, in turn: creates (REST and a GraphQL mutation) and reads (REST and a GraphQL
  // query) of a person created before (the list while there is none yet).
  const lane = async () => {
    while (loading) {
      const i = seq++;
      const lastname = `Drain-${run}-${i}`;
      const read = created.length ? created[i % created.length]! : null;
      try {
        switch (i % 6) {
          case 0: {
            sent.push(lastname);
            const res = await client.rest(tenant, 'POST', '/people', {
              firstname: 'Dora',
              lastname,
            });
            record(`POST ${lastname}`, res);
            if (res.status === 201) created.push(res.body.data.id as string);
            break;
          }
          case 3: {
            sent.push(lastname);
            const res = await client.graphql(
              tenant,
              'mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }',
              { input: { firstname: 'Dora', lastname } },
            );
            record(`createPerson ${lastname}`, res);
            if (res.status === 200 && res.body.data?.createPerson)
              created.push(res.body.data.createPerson.id as string);
            break;
          }
          case 1:
          case 4:
            if (read) record(`GET ${read}`, await client.rest(tenant, 'GET', `/people/${read}`));
            else record('GET list', await client.rest(tenant, 'GET', '/people'));
            break;
          default:
            if (read)
              record(
                `person ${read}`,
                await client.graphql(tenant, 'query($id: ID!) { person(id: $id) { id } }', {
                  id: read,
                }),
              );
            else record('GET list', await client.rest(tenant, 'GET', '/people'));
        }
      } catch (err) {
        fail(`call ${i}`, err);
      }
    }
  };
  const lanes = Promise.all(Array.from({ length: CLIENTS }, lane));
  try {
    await waitFor('load before the SIGTERM', () => calls.length >= ANSWERS_AROUND);

    const child = victim.child!;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    phase = 'draining';
    child.kill('SIGTERM');
    const code = await exited;
    phase = 'exited';
    const atExit = calls.length;
    await waitFor('load after the exit', () => calls.length >= atExit + ANSWERS_AROUND);
    loading = false;
    await lanes;

    // the replica drained and closed cleanly (1 would mean SHUTDOWN_TIMEOUT_MS ran out)
    if (code !== 0) throw new Error(`exit ${code}:\n${victim.log.join('')}`);
    const failed = calls.filter((c) => !c.ok);
    expect(failed).toEqual([]);
    // the load went on through the drain, not only around it
    expect(calls.filter((c) => c.phase === 'draining').length).toBeGreaterThan(0);
    console.log(
      `drain: ${calls.length} calls (${sent.length} creates), ` +
        `${calls.filter((c) => c.phase === 'draining').length} answered while the replica drained, ` +
        `0 failed`,
    );
  } finally {
    loading = false;
    await lanes;
  }

  // every acknowledged create stored exactly once (and none of the others: there are none)
  const rows = await runSql<{ lastname: string; n: number }>(
    client.stack.processes.get('crm-people')!.env.DATABASE_URL!,
    `SELECT lastname, count(*)::int AS n FROM "Person"
      WHERE "tenantId" = $1 AND lastname LIKE $2 GROUP BY lastname`,
    [tenant.id, `Drain-${run}-%`],
  );
  expect(created.length).toBe(sent.length);
  expect(rows.filter((r) => r.n !== 1)).toEqual([]);
  expect(rows.map((r) => r.lastname).sort()).toEqual([...sent].sort());
});
