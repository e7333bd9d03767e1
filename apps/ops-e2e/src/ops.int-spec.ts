import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { databaseUrl, freePort, NATS_TEST_URL, TEST_SERVER_URL } from '@crm/testing';
import { callEsm, ROOT, runEsm, tool } from './support/esm';

const DATABASE = tool('tools/dev/database.mjs');
const NATS = tool('tools/dev/nats.mjs');
const CLIENT = tool('tools/dev/admin-client.mjs');

function admin(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ['tools/admin.mjs', ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

interface Seen {
  method: string;
  url: string;
  auth?: string;
  body: unknown;
}

/**
 * A stand-in for the gateway's admin API (the real one needs the whole stack; the launcher run
 * in the report covers that): records each request and answers with `reply`.
 */
async function fakeGateway(
  reply: (req: Seen) => { status: number; data?: unknown; message?: string },
) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const r: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization,
        body: text ? JSON.parse(text) : undefined,
      };
      seen.push(r);
      const { status, data = null, message = null } = reply(r);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ data, message, metaData: {}, statusCode: status }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
}

describe('npm run admin', () => {
  it('--help lists every command and where the token comes from', async () => {
    const r = await admin(['--help'], {});
    expect(r.code).toBe(0);
    for (const verb of ['create-tenant', 'issue-key', 'revoke-key', 'tariffs', 'set-tariff'])
      expect(r.stdout).toContain(verb);
    expect(r.stdout).toContain('ADMIN_TOKEN');
    expect(r.stdout).toContain('GATEWAY_URL');
  });

  it('sends the request with the admin token and prints the data as JSON', async () => {
    const gw = await fakeGateway(() => ({
      status: 201,
      data: { id: 'k1', tenantId: 'acme', name: 'ci', prefix: 'abc', key: 'secret-key' },
    }));
    try {
      const r = await admin(['issue-key', 'acme', 'ci'], {
        GATEWAY_URL: gw.url,
        ADMIN_TOKEN: 'admin-token-for-tests',
      });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        id: 'k1',
        tenantId: 'acme',
        name: 'ci',
        prefix: 'abc',
        key: 'secret-key',
      });
      expect(gw.seen).toEqual([
        {
          method: 'POST',
          url: '/v1/admin/tenants/acme/api-keys',
          auth: 'Bearer admin-token-for-tests',
          body: { name: 'ci' },
        },
      ]);
    } finally {
      await gw.close();
    }
  });

  it("prints the gateway's error message to stderr and exits 1", async () => {
    const gw = await fakeGateway(() => ({ status: 409, message: 'Tenant acme already exists' }));
    try {
      const r = await admin(['create-tenant', 'acme', 'ACME'], {
        GATEWAY_URL: gw.url,
        ADMIN_TOKEN: 'admin-token-for-tests',
      });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: 'admin: HTTP 409: Tenant acme already exists\n',
      });
    } finally {
      await gw.close();
    }
  });

  it('says so when no gateway answers', async () => {
    const port = await freePort();
    const r = await admin(['tariffs'], {
      GATEWAY_URL: `http://127.0.0.1:${port}`,
      ADMIN_TOKEN: 'admin-token-for-tests',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot reach the gateway at http://127.0.0.1:${port}`);
  });
});

describe('launcher: demo tenant', () => {
  const seed = (url: string) =>
    runEsm<{ tenantCreated: boolean; keyCreated: boolean }>(
      `const { createAdminClient, seedDemoTenant } = await import(${JSON.stringify(CLIENT)});
       const client = createAdminClient({ baseUrl: input.url, token: 'admin-token-for-tests' });
       return seedDemoTenant(client, { tenantId: 'demo', name: 'Demo tenant', apiKey: 'demo_0123456789abcdefghijkl' });`,
      { url },
    );

  it('creates the tenant, puts it on tariff complete and issues the fixed key', async () => {
    const gw = await fakeGateway((r) => ({ status: r.method === 'PUT' ? 200 : 201 }));
    try {
      await expect(seed(gw.url)).resolves.toEqual({ tenantCreated: true, keyCreated: true });
      expect(gw.seen.map((s) => [s.method, s.url, s.body])).toEqual([
        [
          'POST',
          '/v1/admin/tenants',
          {
            id: 'demo',
            name: 'Demo tenant',
            contact: { companyName: 'Demo tenant', email: 'demo@example.com' },
          },
        ],
        ['PUT', '/v1/admin/tenants/demo/tariff', { tariffId: 'complete' }],
        [
          'POST',
          '/v1/admin/tenants/demo/api-keys',
          { name: 'demo key (npm start)', key: 'demo_0123456789abcdefghijkl' },
        ],
      ]);
    } finally {
      await gw.close();
    }
  });

  it('accepts a tenant and key that exist already (409) on a restart', async () => {
    const gw = await fakeGateway((r) => ({ status: r.method === 'PUT' ? 200 : 409 }));
    try {
      await expect(seed(gw.url)).resolves.toEqual({ tenantCreated: false, keyCreated: false });
    } finally {
      await gw.close();
    }
  });

  it("fails on any other refusal, with the gateway's message", async () => {
    const gw = await fakeGateway(() => ({ status: 401, message: 'Invalid admin token' }));
    try {
      await expect(seed(gw.url)).rejects.toThrow('HTTP 401: Invalid admin token');
    } finally {
      await gw.close();
    }
  });
});

describe('launcher: databases on a real PostgreSQL', () => {
  const suffix = randomBytes(4).toString('hex');
  const names = [`ops_e2e_${suffix}_a`, `ops_e2e_${suffix}_b`];

  afterAll(async () => {
    const client = new Client({ connectionString: TEST_SERVER_URL });
    await client.connect();
    for (const n of names) await client.query(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`);
    await client.end();
  });

  const existing = async () => {
    const client = new Client({ connectionString: TEST_SERVER_URL });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname = ANY($1::text[]) ORDER BY datname',
      [names],
    );
    await client.end();
    return rows.map((r) => r.datname);
  };

  it('creates the missing databases once, through a URL whose own database does not exist', async () => {
    // The server URL names a database that is not there: the launcher falls back to `postgres`.
    const server = databaseUrl(`ops_e2e_${suffix}_absent`);
    await expect(callEsm(DATABASE, 'ensureDatabases', server, names)).resolves.toEqual(names);
    await expect(existing()).resolves.toEqual(names);
    await expect(callEsm(DATABASE, 'ensureDatabases', server, names)).resolves.toEqual([]);
  });

  it('fails with the connection error when no server answers', async () => {
    const port = await freePort();
    await expect(
      callEsm(DATABASE, 'ensureDatabases', `postgresql://u:pw@127.0.0.1:${port}/postgres`, names),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('launcher: NATS', () => {
  it('recognises a NATS server, and a port where none answers', async () => {
    const address = await callEsm<{ host: string; port: number }>(
      NATS,
      'natsAddress',
      NATS_TEST_URL,
    );
    await expect(callEsm(NATS, 'natsAnswers', address)).resolves.toBe(true);
    const port = await freePort();
    await expect(callEsm(NATS, 'natsAnswers', { host: '127.0.0.1', port })).resolves.toBe(false);
  });

  it('does not try to start a server for a NATS_URL on another machine', async () => {
    await expect(
      runEsm(
        `const { ensureNats } = await import(${JSON.stringify(NATS)});
         return ensureNats({ natsUrl: 'nats://nats.invalid:4222', storeDir: '/nonexistent', supervisor: null });`,
      ),
    ).rejects.toThrow('no NATS server answers at nats://nats.invalid:4222');
  });
});

describe('launcher: the embedded PostgreSQL', () => {
  // The embedded server is a newer PostgreSQL (18) than the machines' (15): every service's
  // migrations must apply on it too (17+ runs index expressions with a restricted search_path).
  it('starts, and every service migration applies on it', async () => {
    const port = await freePort();
    const result = await runEsm<{ applied: string[] }>(
      `const os = await import('node:os');
       const fs = await import('node:fs');
       const path = await import('node:path');
       const { execFileSync } = await import('node:child_process');
       const db = await import(input.database);
       const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-pg-'));
       const pg = await db.startEmbeddedPostgres({ dataDir, port: input.port });
       try {
         const services = fs.readdirSync('prisma').filter((s) => fs.existsSync(path.join('prisma', s, 'schema.prisma')));
         const names = services.map((s) => s.replace(/-/g, '_'));
         await db.ensureDatabases(pg.url, names);
         for (const [i, s] of services.entries()) {
           execFileSync(process.execPath, ['tools/prisma.mjs', 'deploy', s, '--url', db.withDatabase(pg.url, names[i])], { stdio: 'pipe' });
         }
         return { applied: services };
       } finally {
         await pg.stop();
         fs.rmSync(dataDir, { recursive: true, force: true });
       }`,
      { database: DATABASE, port },
    );
    expect(result.applied).toEqual(expect.arrayContaining(['crm-people', 'tenant-info']));
  }, 120000);
});
