import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STACK_WORKERS } from '@crm/testing';
import { callEsm, runEsm, tool } from './support/esm';

const WORKSPACE = tool('tools/dev/workspace.mjs');
const DATABASE = tool('tools/dev/database.mjs');
const APP_ENV = tool('tools/dev/app-env.mjs');
const SECRETS = tool('tools/dev/secrets.mjs');
const OUTPUT = tool('tools/dev/output.mjs');
const NATS = tool('tools/dev/nats.mjs');
const BANNER = tool('tools/dev/banner.mjs');

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ops-launcher-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('per-service database URLs', () => {
  it('replaces only the database name, keeping credentials, host, port and parameters', async () => {
    const url = 'postgresql://app:s3cret@db.example:6543/postgres?sslmode=require';
    await expect(callEsm(DATABASE, 'withDatabase', url, 'crm_people')).resolves.toBe(
      'postgresql://app:s3cret@db.example:6543/crm_people?sslmode=require',
    );
  });

  it('adds the database to a server URL that names none', async () => {
    await expect(
      callEsm(DATABASE, 'withDatabase', 'postgres://postgres@127.0.0.1:5432', 'tenant_info'),
    ).resolves.toBe('postgres://postgres@127.0.0.1:5432/tenant_info');
  });

  it('refuses a URL that is not PostgreSQL, without printing its password', async () => {
    const err = await callEsm(DATABASE, 'withDatabase', 'mysql://u:pw@h/x', 'a').catch(
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('not a postgres:// or postgresql:// URL');
    expect((err as Error).message).not.toContain('pw');
  });

  it('hides the password in URLs it prints', async () => {
    await expect(
      callEsm(DATABASE, 'redactUrl', 'postgresql://app:s3cret@db:5432/crm_people'),
    ).resolves.toBe('postgresql://app:***@db:5432/crm_people');
  });
});

describe('workspace discovery', () => {
  it('finds apps by their src/main.ts and leaves out test projects', async () => {
    const root = path.join(tmp, 'discover');
    write(path.join(root, 'apps/gateway/src/main.ts'), '');
    write(path.join(root, 'apps/events/src/main.ts'), '');
    write(path.join(root, 'apps/half-written/src/app.module.ts'), '');
    write(path.join(root, 'apps/gateway-e2e/src/main.ts'), '');
    await expect(callEsm(WORKSPACE, 'listApps', root)).resolves.toEqual(['events', 'gateway']);
    await expect(callEsm(WORKSPACE, 'classifyApps', ['events', 'gateway'])).resolves.toEqual({
      gateway: true,
      services: ['events'],
    });
  });

  it('names databases and variables after the app', async () => {
    await expect(callEsm(WORKSPACE, 'databaseName', 'bookings-invitations')).resolves.toBe(
      'bookings_invitations',
    );
    await expect(callEsm(WORKSPACE, 'envPrefix', 'crm-people')).resolves.toBe('CRM_PEOPLE');
  });

  it('reads the environment names of an app from its config classes', async () => {
    const root = path.join(tmp, 'config');
    write(
      path.join(root, 'libs/config/src/service-config.ts'),
      'export class ServiceConfig {\n  PORT!: number;\n  DATABASE_URL!: string;\n  NATS_URL = "x";\n' +
        '  @InternalTokenRule()\n  INTERNAL_TOKEN?: string;\n}\n',
    );
    write(
      path.join(root, 'apps/shop/src/config.ts'),
      'export class ShopConfig extends ServiceConfig {\n  @IsInt()\n  override PORT = 3009;\n' +
        '  SHOP_SECRET!: string;\n  SHOP_MODE?: string;\n}\n',
    );
    write(path.join(root, 'apps/shop/src/main.ts'), 'const x = process.env.SHOP_DEBUG;\n');
    await expect(callEsm(WORKSPACE, 'appEnvNames', 'shop', root)).resolves.toEqual({
      names: [
        'DATABASE_URL',
        'INTERNAL_TOKEN',
        'NATS_URL',
        'PORT',
        'SHOP_DEBUG',
        'SHOP_MODE',
        'SHOP_SECRET',
      ],
      // PORT has a default in the app, so only the two without one stay required
      required: ['DATABASE_URL', 'SHOP_SECRET'],
      // optional, except with NODE_ENV=production
      production: ['INTERNAL_TOKEN'],
    });
  });
});

describe('ports', () => {
  const apps = ['gateway', 'crm-people', 'tenant-info', 'invoices'];

  it('uses the design defaults, and the next free numbers for a service not in the design', async () => {
    await expect(callEsm(WORKSPACE, 'appPorts', apps, {})).resolves.toEqual({
      gateway: 3000,
      'crm-people': 3001,
      'tenant-info': 3005,
      invoices: 3010,
    });
  });

  it('takes PORT for the gateway and <APP>_PORT for a service', async () => {
    const env = { PORT: '23000', CRM_PEOPLE_PORT: '23001', INVOICES_PORT: '23099' };
    await expect(callEsm(WORKSPACE, 'appPorts', apps, env)).resolves.toEqual({
      gateway: 23000,
      'crm-people': 23001,
      'tenant-info': 3005,
      invoices: 23099,
    });
  });

  it('starts bookings-invitations with a mail worker process of its own, its health port overridable', async () => {
    await expect(
      callEsm(WORKSPACE, 'workersOf', ['crm-people', 'bookings-invitations']),
    ).resolves.toEqual([
      {
        app: 'bookings-invitations',
        name: 'bookings-mail-worker',
        role: 'mail-worker',
        port: 3014,
        env: { MAIL_WORKER_NICE: '19' },
      },
    ]);
    // the e2e stack (@crm/testing startStack) starts the same processes as npm start
    const apps = await callEsm<string[]>(WORKSPACE, 'listApps');
    const workers = await callEsm<{ app: string; name: string; role: string }[]>(
      WORKSPACE,
      'workersOf',
      apps,
    );
    expect(workers.map(({ app, name, role }) => ({ app, name, role }))).toEqual(
      Object.entries(STACK_WORKERS).flatMap(([app, ws]) => ws.map((w) => ({ app, ...w }))),
    );
    const names = ['bookings-invitations', 'bookings-mail-worker'];
    await expect(callEsm(WORKSPACE, 'appPorts', names, {})).resolves.toEqual({
      'bookings-invitations': 3004,
      'bookings-mail-worker': 3014,
    });
    await expect(
      callEsm(WORKSPACE, 'appPorts', names, { BOOKINGS_MAIL_WORKER_PORT: '23014' }),
    ).resolves.toMatchObject({ 'bookings-mail-worker': 23014 });
  });

  it('starts events with a worker process of its own (consumers, webhooks), its health port overridable', async () => {
    await expect(callEsm(WORKSPACE, 'workersOf', ['events', 'crm-people'])).resolves.toEqual([
      {
        app: 'events',
        name: 'events-worker',
        role: 'worker',
        port: 3013,
        env: { WORKER_NICE: '19' },
      },
    ]);
    const names = ['events', 'events-worker'];
    await expect(callEsm(WORKSPACE, 'appPorts', names, {})).resolves.toEqual({
      events: 3003,
      'events-worker': 3013,
    });
    await expect(
      callEsm(WORKSPACE, 'appPorts', names, { EVENTS_WORKER_PORT: '23013' }),
    ).resolves.toMatchObject({ 'events-worker': 23013 });
  });

  it('gives every app and worker process of the repository a port of its own', async () => {
    const apps = await callEsm<string[]>(WORKSPACE, 'listApps');
    const workers = await callEsm<{ name: string }[]>(WORKSPACE, 'workersOf', apps);
    expect(workers.map((w) => w.name)).toEqual(['bookings-mail-worker', 'events-worker']);
    const ports = await callEsm<Record<string, number>>(
      WORKSPACE,
      'appPorts',
      [...apps, ...workers.map((w) => w.name)],
      {},
    );
    expect(new Set(Object.values(ports)).size).toBe(apps.length + workers.length);
    expect(ports).toMatchObject({ 'bookings-mail-worker': 3014, 'events-worker': 3013 });
  });

  it('names the variable of a bad port and the apps of a clash', async () => {
    await expect(callEsm(WORKSPACE, 'appPorts', apps, { TENANT_INFO_PORT: 'x1' })).rejects.toThrow(
      'TENANT_INFO_PORT="x1" is not a port number',
    );
    await expect(callEsm(WORKSPACE, 'appPorts', apps, { CRM_PEOPLE_PORT: '3000' })).rejects.toThrow(
      'crm-people and gateway would both use port 3000',
    );
  });
});

describe('app environment', () => {
  it('gives a service its port, database, NATS, the internal token and 127.0.0.1, keeping the rest', async () => {
    const env = await callEsm<Record<string, string>>(APP_ENV, 'serviceEnv', {
      env: { PATH: '/bin', HOST: '0.0.0.0' },
      port: 3001,
      databaseUrl: 'postgresql://p@h/crm_people',
      natsUrl: 'nats://127.0.0.1:24222',
      internalToken: 'generated-internal-token',
    });
    expect(env).toEqual({
      PATH: '/bin',
      HOST: '127.0.0.1',
      INTERNAL_TOKEN: 'generated-internal-token',
      NODE_ENV: 'development',
      NATS_URL: 'nats://127.0.0.1:24222',
      APOLLO_TELEMETRY_DISABLED: 'true',
      PORT: '3001',
      DATABASE_URL: 'postgresql://p@h/crm_people',
    });
  });

  it('gives SECRETS_KEY to the services that read it', async () => {
    const env = await callEsm<Record<string, string>>(APP_ENV, 'serviceEnv', {
      env: {},
      port: 3003,
      databaseUrl: 'postgresql://p@h/events',
      natsUrl: 'nats://127.0.0.1:24222',
      internalToken: 'generated-internal-token',
      secretsKey: 'local1:generated-secrets-key',
    });
    expect(env.SECRETS_KEY).toBe('local1:generated-secrets-key');
  });

  it('points the services at the development mailbox the launcher started', async () => {
    const env = await callEsm<Record<string, string>>(APP_ENV, 'serviceEnv', {
      env: {},
      port: 3004,
      databaseUrl: 'postgresql://p@h/bookings_invitations',
      natsUrl: 'nats://127.0.0.1:24222',
      internalToken: 'generated-internal-token',
      smtpUrl: 'smtp://127.0.0.1:2525',
    });
    expect(env.SMTP_URL).toBe('smtp://127.0.0.1:2525');
  });

  it('sets the role of a process of a service that runs in several, its defaults overridable', async () => {
    const worker = (env: Record<string, string>) =>
      callEsm<Record<string, string>>(APP_ENV, 'serviceEnv', {
        env,
        port: 3014,
        databaseUrl: 'postgresql://p@h/bookings_invitations',
        natsUrl: 'nats://127.0.0.1:24222',
        internalToken: 'generated-internal-token',
        role: 'mail-worker',
        defaults: { MAIL_WORKER_NICE: '10' },
      });
    await expect(worker({ PROCESS_ROLE: 'all' })).resolves.toMatchObject({
      PROCESS_ROLE: 'mail-worker',
      MAIL_WORKER_NICE: '10',
      PORT: '3014',
    });
    await expect(worker({ MAIL_WORKER_NICE: '0' })).resolves.toMatchObject({
      MAIL_WORKER_NICE: '0',
    });
  });

  it('lets SERVICES_HOST open the services to other interfaces', async () => {
    const env = await callEsm<Record<string, string>>(APP_ENV, 'serviceEnv', {
      env: { SERVICES_HOST: '0.0.0.0' },
      port: 3001,
      databaseUrl: 'postgresql://p@h/crm_people',
      natsUrl: 'nats://127.0.0.1:24222',
      internalToken: 'generated-internal-token',
    });
    expect(env.HOST).toBe('0.0.0.0');
  });

  it('tells the gateway where each service listens and which serve GraphQL', async () => {
    const env = await callEsm<Record<string, string>>(APP_ENV, 'gatewayEnv', {
      env: { DATABASE_URL: 'postgresql://server', NODE_ENV: 'production' },
      port: 3000,
      natsUrl: 'nats://n:4222',
      adminToken: 'a'.repeat(20),
      internalToken: 'i'.repeat(20),
      servicePorts: { 'crm-people': 3001, 'bookings-invitations': 3004 },
      subgraphs: ['crm-people'],
    });
    expect(env).toMatchObject({
      PORT: '3000',
      NODE_ENV: 'production',
      ADMIN_TOKEN: 'a'.repeat(20),
      INTERNAL_TOKEN: 'i'.repeat(20),
      CRM_PEOPLE_URL: 'http://127.0.0.1:3001',
      BOOKINGS_INVITATIONS_URL: 'http://127.0.0.1:3004',
      GRAPHQL_SUBGRAPHS: 'crm-people',
    });
    expect(env).not.toHaveProperty('DATABASE_URL');
  });
});

describe('secrets file', () => {
  const fixed = `const gen = { adminToken: () => 'generated-admin-token', apiKey: () => 'generated_api_key_0123456789', internalToken: () => 'generated-internal-token', secretsKey: () => 'local1:generated-secrets-key' };`;
  const resolve = (stored: object, env: object) =>
    runEsm<{ secrets: Record<string, string>; changed: boolean }>(
      `const { resolveSecrets } = await import(${JSON.stringify(SECRETS)}); ${fixed}
       return resolveSecrets(input.stored, input.env, gen);`,
      { stored, env },
    );

  it('generates what is neither set nor stored, and says the file must be written', async () => {
    await expect(resolve({}, {})).resolves.toEqual({
      secrets: {
        adminToken: 'generated-admin-token',
        demoApiKey: 'generated_api_key_0123456789',
        internalToken: 'generated-internal-token',
        secretsKey: 'local1:generated-secrets-key',
      },
      changed: true,
    });
  });

  it('keeps stored secrets unchanged across restarts', async () => {
    const stored = {
      adminToken: 'stored-admin-token-1',
      demoApiKey: 'stored_key_0123456789abcdef',
      internalToken: 'stored-internal-token',
      secretsKey: 'local1:stored-secrets-key',
    };
    await expect(resolve(stored, {})).resolves.toEqual({ secrets: stored, changed: false });
  });

  it('adds an internal token and a SECRETS_KEY to a file written before there were any', async () => {
    const stored = {
      adminToken: 'stored-admin-token-1',
      demoApiKey: 'stored_key_0123456789abcdef',
    };
    await expect(resolve(stored, {})).resolves.toEqual({
      secrets: {
        ...stored,
        internalToken: 'generated-internal-token',
        secretsKey: 'local1:generated-secrets-key',
      },
      changed: true,
    });
  });

  it('prefers the environment and records it for npm run admin', async () => {
    const stored = {
      adminToken: 'stored-admin-token-1',
      demoApiKey: 'stored_key_0123456789abcdef',
      internalToken: 'stored-internal-token',
      secretsKey: 'local1:stored-secrets-key',
    };
    const r = await resolve(stored, {
      ADMIN_TOKEN: 'from-env-admin-token',
      INTERNAL_TOKEN: 'from-env-internal-token',
      SECRETS_KEY: 'env1:from-env-secrets-key',
    });
    expect(r).toEqual({
      secrets: {
        adminToken: 'from-env-admin-token',
        demoApiKey: stored.demoApiKey,
        internalToken: 'from-env-internal-token',
        secretsKey: 'env1:from-env-secrets-key',
      },
      changed: true,
    });
  });

  it('writes the file once, readable by its owner only, and reads the same values back', async () => {
    const file = path.join(tmp, 'secrets', 'dev-secrets.json');
    const first = await callEsm<Record<string, string>>(SECRETS, 'loadDevSecrets', file, {});
    expect(first.adminToken.length).toBeGreaterThanOrEqual(16);
    expect(first.demoApiKey).toMatch(/^[A-Za-z0-9_-]{24,200}$/);
    expect(first.internalToken.length).toBeGreaterThanOrEqual(16);
    expect(first.internalToken).not.toBe(first.adminToken);
    // one key of 32 random bytes, as @crm/secrets reads SECRETS_KEY
    expect(first.secretsKey).toMatch(/^local1:[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(first.secretsKey.split(':')[1], 'base64')).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await callEsm<Record<string, string>>(SECRETS, 'loadDevSecrets', file, {});
    expect(again).toEqual(first);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
  });

  it('rejects values the gateway would refuse, naming the variable', async () => {
    const file = path.join(tmp, 'secrets', 'short.json');
    await expect(
      callEsm(SECRETS, 'loadDevSecrets', file, { ADMIN_TOKEN: 'short' }),
    ).rejects.toThrow('ADMIN_TOKEN must have at least 16 characters');
    await expect(
      callEsm(SECRETS, 'loadDevSecrets', file, { DEMO_API_KEY: 'has spaces in it, 24+ chars' }),
    ).rejects.toThrow('DEMO_API_KEY must be 24-200 characters');
    await expect(
      callEsm(SECRETS, 'loadDevSecrets', file, { INTERNAL_TOKEN: 'short' }),
    ).rejects.toThrow('INTERNAL_TOKEN must have at least 16 characters');
    await expect(
      callEsm(SECRETS, 'loadDevSecrets', file, { SECRETS_KEY: 'k1:short' }),
    ).rejects.toThrow('SECRETS_KEY must be keyId:base64-of-32-bytes entries, comma-separated');
  });

  it('names a broken secrets file instead of overwriting it', async () => {
    const file = path.join(tmp, 'secrets', 'broken.json');
    write(file, '{ not json');
    await expect(callEsm(SECRETS, 'loadDevSecrets', file, {})).rejects.toThrow(
      `${file} is not a JSON object`,
    );
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });
});

describe('step reporting', () => {
  // A fake clock advancing 1.2 s per reading after the first and a writer collecting the text.
  const harness = `
    const { Output, Steps, linePrefixer } = await import(${JSON.stringify(OUTPUT)});
    let text = '';
    let t = 0;
    const out = new Output((s) => (text += s));
    const steps = new Steps(['build', 'database'], out, () => (t += 1200));
  `;

  it('prints each step with its duration and notes on one line', async () => {
    const text = await runEsm<string>(
      `${harness}
       await steps.run('build', async (step) => step.note('77 files'));
       steps.skip('database', 'DATABASE_URL set');
       return text;`,
    );
    expect(text).toBe(
      '[1/2] build ... ok (1.2 s, 77 files)\n[2/2] database ... skipped (DATABASE_URL set)\n',
    );
  });

  it('says which step failed and why, keeping the hint', async () => {
    const r = await runEsm<{ text: string; message: string; hint: string; step: string }>(
      `${harness}
       const { StepError } = await import(${JSON.stringify(OUTPUT)});
       try {
         await steps.run('database', async () => { throw new StepError('port 5433 is in use', 'set EMBEDDED_PG_PORT'); });
       } catch (err) {
         return { text, message: err.message, hint: err.hint, step: err.step };
       }`,
    );
    expect(r).toEqual({
      text: '[2/2] database ... FAILED (1.2 s)\n',
      message: 'step 2/2 "database" failed: port 5433 is in use',
      hint: 'set EMBEDDED_PG_PORT',
      step: 'database',
    });
  });

  it('repeats the step name when child output came in between', async () => {
    const text = await runEsm<string>(
      `${harness}
       await steps.run('build', async () => {
         const p = linePrefixer(out, 'nats', { width: 6 });
         p.push('first li');
         p.push('ne\\nsecond line\\npartial');
         p.flush();
       });
       return text;`,
    );
    expect(text).toBe(
      '[1/2] build ...\nnats   | first line\nnats   | second line\nnats   | partial\n[1/2] build ... ok (1.2 s)\n',
    );
  });

  it('formats durations and the closing failure report', async () => {
    await expect(callEsm(OUTPUT, 'formatDuration', 830)).resolves.toBe('0.8 s');
    await expect(callEsm(OUTPUT, 'formatDuration', 65_000)).resolves.toBe('1 min 5 s');
    const lines = await runEsm<string[]>(
      `const { failureReport, StepError } = await import(${JSON.stringify(OUTPUT)});
       return failureReport(new StepError('nats-server is not installed', 'install it\\nor set NATS_URL'));`,
    );
    expect(lines).toEqual(['✖ nats-server is not installed', '  install it', '  or set NATS_URL']);
  });
});

describe('NATS address', () => {
  it('reads host and port of the first server, and whether it is local', async () => {
    await expect(callEsm(NATS, 'natsAddress', 'nats://127.0.0.1:24222')).resolves.toEqual({
      host: '127.0.0.1',
      port: 24222,
      local: true,
    });
    await expect(
      callEsm(NATS, 'natsAddress', 'nats://nats-a.example:4223,nats://nats-b.example:4223'),
    ).resolves.toEqual({ host: 'nats-a.example', port: 4223, local: false });
    await expect(callEsm(NATS, 'natsAddress', 'tls://localhost')).resolves.toEqual({
      host: 'localhost',
      port: 4222,
      local: true,
    });
  });
});

describe('ready banner', () => {
  it('prints the addresses, the credentials and a curl command that uses them', async () => {
    const lines = await callEsm<string[]>(BANNER, 'readyBanner', {
      gatewayUrl: 'http://127.0.0.1:3000',
      services: { 'crm-people': 'http://127.0.0.1:3001' },
      database: 'postgresql://postgres:***@127.0.0.1:5433/',
      natsUrl: 'nats://127.0.0.1:4222',
      demo: { tenantId: 'demo', apiKey: 'demo_key_0123456789abcdefgh' },
      adminToken: 'admin-token-0123456789',
    });
    const text = lines.join('\n');
    expect(text).toContain('API docs     http://127.0.0.1:3000/docs');
    expect(text).toContain('GraphQL      http://127.0.0.1:3000/graphql');
    expect(text).toContain('Tenant id    demo');
    expect(text).toContain('Admin token  admin-token-0123456789');
    expect(text).toContain(
      "curl -s http://127.0.0.1:3000/v1/crm/tenant-info \\\n      -H 'Authorization: Bearer demo_key_0123456789abcdefgh'",
    );
    expect(text).toContain("-H 'X-Service-TenantId: demo'");
  });

  it('shows where the development mailbox lists the mails', async () => {
    const lines = await callEsm<string[]>(BANNER, 'readyBanner', {
      gatewayUrl: null,
      services: { 'bookings-invitations': 'http://127.0.0.1:3004' },
      database: 'x',
      natsUrl: 'y',
      mailbox: { pageUrl: 'http://127.0.0.1:8025/', smtpUrl: 'smtp://127.0.0.1:2525' },
      demo: null,
      adminToken: 'z'.repeat(16),
    });
    expect(lines).toContain(
      '  Mails                 http://127.0.0.1:8025/  (SMTP smtp://127.0.0.1:2525)',
    );
  });

  it('leaves out the demo part when no gateway runs', async () => {
    const lines = await callEsm<string[]>(BANNER, 'readyBanner', {
      gatewayUrl: null,
      services: { 'crm-people': 'http://127.0.0.1:3001' },
      database: 'x',
      natsUrl: 'y',
      demo: null,
      adminToken: 'z'.repeat(16),
    });
    expect(lines.join('\n')).not.toMatch(/curl|Gateway|Tenant id/);
  });

  it('keeps every value in one column, however long a service name', async () => {
    const services = {
      'crm-companies': 'http://127.0.0.1:3002',
      'bookings-invitations': 'http://127.0.0.1:3004',
      events: 'http://127.0.0.1:3003',
    };
    const lines = await callEsm<string[]>(BANNER, 'readyBanner', {
      gatewayUrl: 'http://127.0.0.1:3000',
      services,
      database: 'postgresql://postgres:***@127.0.0.1:5433/',
      natsUrl: 'nats://127.0.0.1:4222',
      demo: { tenantId: 'demo', apiKey: 'demo_key_0123456789abcdefgh' },
      adminToken: 'admin-token-0123456789',
    });
    const rows = lines.slice(lines.indexOf('Ready.') + 1, lines.indexOf('', 2));
    expect(rows.length).toBeGreaterThanOrEqual(10);
    // the longest label, then two spaces, then the value
    expect(rows).toContain('  bookings-invitations  http://127.0.0.1:3004');
    expect(rows).toContain(`  crm-companies${' '.repeat(9)}http://127.0.0.1:3002`);
    const column = (l: string) => l.search(/(?<=\S {2,})\S/);
    expect(new Set(rows.map(column))).toEqual(new Set([24]));
  });
});
