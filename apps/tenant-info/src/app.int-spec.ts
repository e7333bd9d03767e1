import { printSubgraphSchema } from '@apollo/subgraph';
import type { INestApplication } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { ClientProxyFactory } from '@nestjs/microservices';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, NatsConnection, StringCodec } from 'nats';
import { Client } from 'pg';
import type { Envelope } from '@crm/envelope';
import { AppException } from '@crm/errors';
import {
  AccessChangedEvent,
  API_KEY_SCOPES,
  IssuedApiKey,
  MessageBus,
  natsClientOptions,
  RevokedApiKey,
  Subjects,
  TariffSummary,
  TenantSummary,
  VerifyApiKeyReply,
} from '@crm/messaging';
import { asTenant } from '@crm/request-context';
import { createServiceApp } from '@crm/service-kit';
import {
  NATS_TEST_URL,
  ServiceTestClient,
  startServiceForTest,
  TEST_SERVER_URL,
  tenantHeaders,
} from '@crm/testing';
import { hashApiKey } from './api-keys/api-key.crypto';
import { AppModule, SERVICE_NAME } from './app.module';
import { TenantInfoConfig } from './config';
import { PrismaService } from './database/prisma.service';
import type { Tariff } from './tariffs/dto/tariff.dto';
import type { Tenant } from './tenants/dto/tenant.dto';
import type { TenantSubscription } from './tenants/dto/tenant-subscription.dto';
import { TenantsService } from './tenants/tenants.service';

// Another test run may serve the same NATS queue group at the same time: every id here carries
// this run's suffix and only this run's data is checked.
const run = randomBytes(4).toString('hex');
const DB_NAME = `tenant_info_it_${process.pid}`;
const tid = (name: string) => `it-${name}-${run}`;
const SCHEMA_FILE = path.join(__dirname, 'schema.graphql');

let app: INestApplication;
let base: string;
let prisma: PrismaService;
let bus: MessageBus;
let nc: NatsConnection;
const events: AccessChangedEvent[] = [];

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const api = new ServiceTestClient(() => base);

/**
 * A query as the tenant that owns the rows. A Prisma query starts only when awaited, so it is
 * awaited inside the scope (returned as is, it would run in none and find nothing).
 */
const asOwner = <T>(tenantId: string, query: () => PromiseLike<T>): Promise<T> =>
  asTenant(tenantId, async () => await query());

const rest = <T>(p: string, headers: Record<string, string>) =>
  api.rest<Envelope<T>>('GET', p, undefined, headers);

interface GqlResult<T> {
  data: T | null;
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

async function gql<T>(query: string, headers: Record<string, string>, variables = {}) {
  return (await api.graphql<GqlResult<T>>(query, variables, headers)).body;
}

beforeAll(async () => {
  ({ app, url: base } = await startServiceForTest({
    service: SERVICE_NAME,
    appModule: (config) => AppModule.forRoot(config),
    config: TenantInfoConfig,
    createApp: createServiceApp,
    dbName: DB_NAME,
  }));
  prisma = app.get(PrismaService);

  bus = new MessageBus(
    ClientProxyFactory.create(natsClientOptions('tenant-info-it', NATS_TEST_URL)),
    {
      service: 'tenant-info-it',
      url: NATS_TEST_URL,
      requestTimeoutMs: 5000,
    },
  );
  nc = await connect({ servers: NATS_TEST_URL });
  const sc = StringCodec();
  const sub = nc.subscribe(Subjects.tenantInfo.accessChanged);
  void (async () => {
    for await (const m of sub) {
      // Nest's NATS client sends { pattern, data }.
      events.push((JSON.parse(sc.decode(m.data)) as { data: AccessChangedEvent }).data);
    }
  })();
  await nc.flush();
});

afterAll(async () => {
  await nc?.drain();
  await bus?.onApplicationShutdown();
  await app?.close();
  // The name is per process (parallel runs never share it), so drop it rather than leave one behind.
  const admin = new Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  await admin.end();
});

describe('REST TI1-TI3', () => {
  const acme = tid('acme');
  const small = tid('small');

  beforeAll(async () => {
    // Seeded through this instance's own service (not NATS), so no other instance can take it.
    const tenants = app.get(TenantsService);
    await tenants.create({
      id: acme,
      name: 'ACME GmbH',
      contact: { companyName: 'ACME GmbH', email: 'office@acme.test', city: 'Berlin' },
    });
    await tenants.create({ id: small, name: 'Small Ltd', tariffId: 'starter' });
  });

  it('TI1 answers the tenant in the envelope', async () => {
    const { status, body } = await rest('/tenant-info', tenantHeaders(acme));
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        id: acme,
        name: 'ACME GmbH',
        contact: {
          companyName: 'ACME GmbH',
          contactPerson: null,
          email: 'office@acme.test',
          phone: null,
          street: null,
          zip: null,
          city: 'Berlin',
          country: null,
          website: null,
        },
        tariffId: 'complete',
        dateCreated: expect.stringMatching(/Z$/),
        dateModified: expect.stringMatching(/Z$/),
      },
      message: null,
      metaData: { totalResults: 1, responseTimeStamp: expect.stringMatching(/Z$/) },
      statusCode: 200,
    });
  });

  it('TI2 answers the tariff with modules in order and their functions', async () => {
    const { status, body } = await rest<Tariff>('/tenant-info/tariff', tenantHeaders(acme));
    expect(status).toBe(200);
    expect(body.statusCode).toBe(200);
    expect(body.data).toMatchObject({ id: 'complete', name: 'Complete' });
    expect(body.data!.modules.map((m) => m.module)).toEqual([
      'crm',
      'events',
      'bookings',
      'tenant-info',
    ]);
    expect(body.data!.modules[0]).toMatchObject({ name: 'CRM' });
    expect(body.data!.modules[0].functions).toContainEqual({ key: 'people', name: 'People' });
    expect(body.data!.modules[0].functions).toContainEqual({
      key: 'business-cards',
      name: 'Business cards',
    });
  });

  it('TI2 follows Accept-Language and the tenant tariff', async () => {
    const { body } = await rest<Tariff>(
      '/tenant-info/tariff',
      tenantHeaders(small, { 'Accept-Language': 'de' }),
    );
    expect(body.data).toMatchObject({ id: 'starter', name: 'Starter' });
    expect(body.data!.modules.map((m) => [m.module, m.name])).toEqual([
      ['crm', 'CRM'],
      ['tenant-info', 'Mandanteninformationen'],
    ]);
    expect(body.data!.modules[0].functions[0]).toEqual({ key: 'people', name: 'Personen' });
  });

  it('TI3 answers the subscription with a renewal within the month', async () => {
    const { status, body } = await rest<TenantSubscription>(
      '/tenant-info/subscription',
      tenantHeaders(acme),
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({
      tenantId: acme,
      status: 'ACTIVE',
      billingPeriod: 'monthly',
      startDate: expect.stringMatching(/Z$/),
      endDate: null,
      renewsAt: expect.stringMatching(/Z$/),
      seats: 1,
    });
    const renews = Date.parse(body.data!.renewsAt!);
    expect(renews).toBeGreaterThan(Date.now());
    expect(renews).toBeLessThanOrEqual(Date.parse(body.data!.startDate) + 31 * 86_400_000);
  });

  it('TI3 has no renewal once cancelled', async () => {
    await asOwner(small, () =>
      prisma.subscription.update({ where: { tenantId: small }, data: { status: 'CANCELLED' } }),
    );
    const { body } = await rest<TenantSubscription>(
      '/tenant-info/subscription',
      tenantHeaders(small),
    );
    expect(body.data).toMatchObject({ status: 'CANCELLED', renewsAt: null });
  });

  it.each(['/tenant-info', '/tenant-info/tariff', '/tenant-info/subscription'])(
    '%s answers 404 for an unknown tenant',
    async (p) => {
      const unknown = tid('nobody');
      const { status, body } = await rest(p, tenantHeaders(unknown));
      expect(status).toBe(404);
      expect(body).toMatchObject({ data: null, statusCode: 404 });
      expect(body.message).toContain(unknown);
    },
  );

  it('answers 400 naming a missing required header, in German too', async () => {
    const headers = tenantHeaders(acme);
    delete (headers as Record<string, string>)['X-Service-TenantId'];
    const { status, body } = await rest('/tenant-info', headers);
    expect(status).toBe(400);
    expect(body).toMatchObject({ data: null, statusCode: 400 });
    expect(body.message).toContain('X-Service-TenantId');

    const noName = tenantHeaders(acme, { 'Accept-Language': 'de' });
    delete (noName as Record<string, string>)['X-Integration-Name'];
    const de = await rest<Tariff>('/tenant-info/tariff', noName);
    expect(de.status).toBe(400);
    expect(de.body.message).toContain('X-Integration-Name');
  });
  it('documents TI1-TI3 in the OpenAPI description', async () => {
    const { body: doc } = await api.rest<{
      paths: Record<string, { get?: { summary?: string } }>;
    }>('GET', '/openapi.json');
    for (const [p, op] of [
      ['/v1/crm/tenant-info', 'TI1'],
      ['/v1/crm/tenant-info/tariff', 'TI2'],
      ['/v1/crm/tenant-info/subscription', 'TI3'],
    ]) {
      expect(doc.paths[p]?.get?.summary).toMatch(new RegExp(`^${op} `));
    }
  });
});

describe('GraphQL', () => {
  const gamma = tid('gamma');

  beforeAll(async () => {
    await app.get(TenantsService).create({ id: gamma, name: 'Gamma AG', tariffId: 'professional' });
  });

  it('answers tenantInfo, tenantTariff and tenantSubscription with the REST field names', async () => {
    const res = await gql<{
      tenantInfo: Tenant;
      tenantTariff: Tariff;
      tenantSubscription: TenantSubscription;
    }>(
      `{ tenantInfo { id name tariffId contact { email city } dateCreated dateModified }
         tenantTariff { id name description modules { module name functions { key name } } }
         tenantSubscription { tenantId status billingPeriod startDate endDate renewsAt seats } }`,
      tenantHeaders(gamma),
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.tenantInfo).toMatchObject({
      id: gamma,
      name: 'Gamma AG',
      tariffId: 'professional',
      contact: { email: null, city: null },
    });
    expect(res.data!.tenantTariff.modules.map((m) => m.module)).toEqual([
      'crm',
      'events',
      'tenant-info',
    ]);
    expect(res.data!.tenantSubscription).toMatchObject({
      tenantId: gamma,
      status: 'ACTIVE',
      billingPeriod: 'monthly',
      endDate: null,
      seats: 1,
    });
    // Same data as REST.
    const restSub = await rest<TenantSubscription>(
      '/tenant-info/subscription',
      tenantHeaders(gamma),
    );
    expect(res.data!.tenantSubscription).toEqual(restSub.body.data);
  });

  it('answers NOT_FOUND / 404 for an unknown tenant', async () => {
    const res = await gql('{ tenantTariff { id } }', tenantHeaders(tid('nobody')));
    expect(res.data).toBeNull();
    expect(res.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });

  it('answers BAD_REQUEST naming a missing header', async () => {
    const headers = tenantHeaders(gamma);
    delete (headers as Record<string, string>)['X-Integration-Provider'];
    const res = await gql('{ tenantInfo { id } }', headers);
    expect(res.errors![0].extensions).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
    expect(res.errors![0].message).toContain('X-Integration-Provider');
  });

  it('resolves Tenant references of the caller only', async () => {
    const res = await gql<{ _entities: (Tenant | null)[] }>(
      `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Tenant { id name } } }`,
      tenantHeaders(gamma),
      {
        reps: [
          { __typename: 'Tenant', id: gamma },
          { __typename: 'Tenant', id: tid('acme') },
          { __typename: 'Tenant', id: gamma },
        ],
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!._entities).toEqual([
      { id: gamma, name: 'Gamma AG' },
      null,
      { id: gamma, name: 'Gamma AG' },
    ]);
  });

  it('the committed schema.graphql is the schema the app builds (UPDATE_SCHEMA=1 rewrites it)', () => {
    const sdl = `${printSubgraphSchema(app.get(GraphQLSchemaHost).schema).trim()}\n`;
    if (process.env.UPDATE_SCHEMA === '1') writeFileSync(SCHEMA_FILE, sdl);
    expect(existsSync(SCHEMA_FILE)).toBe(true);
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(sdl);
    expect(sdl).toMatch(/type Tenant\s+@key\(fields: "id"\)/);
  });
});

describe('NATS', () => {
  const request = <T>(subject: string, payload: object) => bus.request<T>(subject, payload);

  async function rejection(p: Promise<unknown>): Promise<AppException> {
    const err = await p.then(
      () => {
        throw new Error('expected a rejection');
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppException);
    return err as AppException;
  }

  describe('tenants and tariffs', () => {
    const delta = tid('delta');

    it('createTenant assigns the default tariff and an active subscription', async () => {
      const created = await request<TenantSummary>(Subjects.tenantInfo.createTenant, {
        id: delta,
        name: 'Delta KG',
        contact: { email: 'info@delta.test', website: 'https://delta.test' },
      });
      expect(created).toEqual({
        id: delta,
        name: 'Delta KG',
        contact: { email: 'info@delta.test', website: 'https://delta.test' },
        tariffId: 'complete',
        dateCreated: expect.stringMatching(/Z$/),
      });
      const sub = await asOwner(delta, () =>
        prisma.subscription.findUnique({ where: { tenantId: delta } }),
      );
      expect(sub).toMatchObject({ status: 'ACTIVE', billingPeriod: 'monthly', seats: 1 });
    });

    it('createTenant with an existing id answers a typed 409', async () => {
      const err = await rejection(
        request(Subjects.tenantInfo.createTenant, { id: delta, name: 'Again' }),
      );
      expect(err.code).toBe('CONFLICT');
      expect(err.status).toBe(409);
      expect(err.args).toMatchObject({ resource: 'Tenant', id: delta });
    });

    it('createTenant takes a requested tariff and refuses an unknown one', async () => {
      const starter = await request<TenantSummary>(Subjects.tenantInfo.createTenant, {
        id: tid('epsilon'),
        name: 'Epsilon',
        tariffId: 'starter',
      });
      expect(starter.tariffId).toBe('starter');
      const err = await rejection(
        request(Subjects.tenantInfo.createTenant, {
          id: tid('zeta'),
          name: 'Zeta',
          tariffId: 'platinum',
        }),
      );
      expect(err.status).toBe(404);
      const zeta = tid('zeta');
      expect(await asOwner(zeta, () => prisma.tenant.count({ where: { id: zeta } }))).toBe(0);
    });

    it('createTenant validates its payload (field and rule)', async () => {
      const err = await rejection(
        request(Subjects.tenantInfo.createTenant, {
          id: 'bad id!',
          name: '',
          contact: { email: 'nope' },
        }),
      );
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.problems.map((p) => [p.field, p.rule])).toEqual(
        expect.arrayContaining([
          ['id', 'matches'],
          ['name', 'isNotEmpty'],
          ['contact.email', 'isEmail'],
        ]),
      );
    });

    it('listTariffs answers the seeded tariffs, cheapest first', async () => {
      const tariffs = await request<TariffSummary[]>(Subjects.tenantInfo.listTariffs, {});
      expect(tariffs.map((t) => t.id)).toEqual(['starter', 'professional', 'complete']);
      expect(tariffs[2].modules.map((m) => m.module)).toEqual([
        'crm',
        'events',
        'bookings',
        'tenant-info',
      ]);
      expect(tariffs[0].modules[0].functions).toEqual(
        expect.arrayContaining([
          'people',
          'business-cards',
          'relations',
          'touchpoints',
          'companies',
        ]),
      );
    });

    it('setTenantTariff changes the tariff and publishes accessChanged', async () => {
      const changed = await request<TenantSummary>(Subjects.tenantInfo.setTenantTariff, {
        tenantId: delta,
        tariffId: 'professional',
      });
      expect(changed).toMatchObject({ id: delta, tariffId: 'professional' });
      await waitFor(() => events.find((e) => e.tenantId === delta && !e.keyId));
      const { body } = await rest<Tariff>('/tenant-info/tariff', tenantHeaders(delta));
      expect(body.data!.id).toBe('professional');
    });

    it('setTenantTariff answers 404 for an unknown tenant or tariff', async () => {
      const noTenant = await rejection(
        request(Subjects.tenantInfo.setTenantTariff, {
          tenantId: tid('nobody'),
          tariffId: 'starter',
        }),
      );
      expect(noTenant.status).toBe(404);
      expect(noTenant.args).toMatchObject({ resource: 'Tenant' });
      const noTariff = await rejection(
        request(Subjects.tenantInfo.setTenantTariff, { tenantId: delta, tariffId: 'platinum' }),
      );
      expect(noTariff.status).toBe(404);
      expect(noTariff.args).toMatchObject({ resource: 'Tariff', id: 'platinum' });
    });
  });

  describe('api keys', () => {
    const eta = tid('eta');
    let issued: IssuedApiKey;

    beforeAll(async () => {
      await request(Subjects.tenantInfo.createTenant, {
        id: eta,
        name: 'Eta',
        tariffId: 'starter',
      });
    });

    it('issueApiKey generates a crm_ key and stores only its hash and prefix', async () => {
      issued = await request<IssuedApiKey>(Subjects.tenantInfo.issueApiKey, {
        tenantId: eta,
        name: 'ERP connector',
      });
      expect(issued).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        tenantId: eta,
        name: 'ERP connector',
        prefix: issued.key.slice(0, 10),
        key: expect.stringMatching(/^crm_[A-Za-z0-9_-]{43}$/),
        scopes: [...API_KEY_SCOPES],
        expiresAt: null,
        dateCreated: expect.stringMatching(/Z$/),
      });
      const row = await asOwner(eta, () =>
        prisma.apiKey.findUniqueOrThrow({ where: { id: issued.id } }),
      );
      expect(row.hash).toBe(hashApiKey(issued.key));
      expect(JSON.stringify(row)).not.toContain(issued.key);
    });

    it('issueApiKey takes a given key, refuses it twice (409) and an unknown tenant (404)', async () => {
      const key = `demo_${randomBytes(16).toString('hex')}`;
      const given = await request<IssuedApiKey>(Subjects.tenantInfo.issueApiKey, {
        tenantId: eta,
        name: 'Demo',
        key,
      });
      expect(given).toMatchObject({ key, prefix: key.slice(0, 10) });
      const dup = await rejection(
        request(Subjects.tenantInfo.issueApiKey, { tenantId: eta, name: 'Again', key }),
      );
      expect(dup.status).toBe(409);
      const noTenant = await rejection(
        request(Subjects.tenantInfo.issueApiKey, { tenantId: tid('nobody'), name: 'X' }),
      );
      expect(noTenant.status).toBe(404);
    });

    it('verifyApiKey answers key id, tenant and the tariff modules', async () => {
      const reply = await request<VerifyApiKeyReply>(Subjects.tenantInfo.verifyApiKey, {
        keyHash: hashApiKey(issued.key),
      });
      expect(reply).toEqual({
        valid: true,
        keyId: issued.id,
        tenantId: eta,
        modules: ['crm', 'tenant-info'],
        scopes: [...API_KEY_SCOPES],
        expiresAt: null,
      });
    });

    it('issueApiKey stores the scopes and expiry given, and verifyApiKey answers them', async () => {
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      const scoped = await request<IssuedApiKey>(Subjects.tenantInfo.issueApiKey, {
        tenantId: eta,
        name: 'Reader',
        scopes: ['events:write', 'crm:read'],
        expiresAt,
      });
      expect(scoped).toMatchObject({ scopes: ['crm:read', 'events:write'], expiresAt });
      const row = await asOwner(eta, () =>
        prisma.apiKey.findUniqueOrThrow({ where: { id: scoped.id } }),
      );
      expect(row.scopes).toEqual(['events:write', 'crm:read']);
      expect(row.expiresAt?.toISOString()).toBe(expiresAt);
      const reply = await request<VerifyApiKeyReply>(Subjects.tenantInfo.verifyApiKey, {
        keyHash: hashApiKey(scoped.key),
      });
      expect(reply).toEqual({
        valid: true,
        keyId: scoped.id,
        tenantId: eta,
        modules: ['crm', 'tenant-info'],
        scopes: ['crm:read', 'events:write'],
        expiresAt,
      });
    });

    it('verifyApiKey answers an expired key as not valid, with its expiry', async () => {
      const soon = await request<IssuedApiKey>(Subjects.tenantInfo.issueApiKey, {
        tenantId: eta,
        name: 'Short-lived',
        expiresAt: new Date(Date.now() + 1000).toISOString(),
      });
      const reply = await waitFor(async () => {
        const r = await request<VerifyApiKeyReply>(Subjects.tenantInfo.verifyApiKey, {
          keyHash: hashApiKey(soon.key),
        });
        return r.valid ? undefined : r;
      });
      expect(reply).toEqual({ valid: false, expiresAt: soon.expiresAt });
    });

    it('issueApiKey names each wrong scope by index and an expiry not ahead, storing nothing', async () => {
      const before = await asOwner(eta, () => prisma.apiKey.count({ where: { tenantId: eta } }));
      const err = await rejection(
        request(Subjects.tenantInfo.issueApiKey, {
          tenantId: eta,
          name: 'Bad',
          scopes: ['crm:read', 'crm:read', 'crm:admin'],
          expiresAt: new Date(Date.now() - 1000).toISOString(),
        }),
      );
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.problems.map((p) => [p.field, p.rule])).toEqual([
        ['scopes[1]', 'duplicateEntry'],
        ['scopes[2]', 'isIn'],
        ['expiresAt', 'inFuture'],
      ]);
      const shapes = await rejection(
        request(Subjects.tenantInfo.issueApiKey, {
          tenantId: eta,
          name: 'Bad',
          scopes: [],
          expiresAt: '2099-01-01',
        }),
      );
      expect(shapes.problems.map((p) => [p.field, p.rule])).toEqual([
        ['scopes', 'arrayMinSize'],
        ['expiresAt', 'matches'],
      ]);
      expect(await asOwner(eta, () => prisma.apiKey.count({ where: { tenantId: eta } }))).toBe(
        before,
      );
    });

    it('verifyApiKey writes lastUsed once, not on every request', async () => {
      const lastUsed = await waitFor(async () => {
        const row = await asOwner(eta, () =>
          prisma.apiKey.findUniqueOrThrow({ where: { id: issued.id } }),
        );
        return row.lastUsed ?? undefined;
      });
      for (let i = 0; i < 5; i++) {
        await request(Subjects.tenantInfo.verifyApiKey, { keyHash: hashApiKey(issued.key) });
      }
      await new Promise((r) => setTimeout(r, 200));
      const row = await asOwner(eta, () =>
        prisma.apiKey.findUniqueOrThrow({ where: { id: issued.id } }),
      );
      expect(row.lastUsed).toEqual(lastUsed);
    });

    it('verifyApiKey answers valid false for an unknown key and 400 for a malformed hash', async () => {
      const unknown = await request<VerifyApiKeyReply>(Subjects.tenantInfo.verifyApiKey, {
        keyHash: hashApiKey(`crm_unknown_${run}`),
      });
      expect(unknown).toEqual({ valid: false });
      const err = await rejection(request(Subjects.tenantInfo.verifyApiKey, { keyHash: 'abc' }));
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.problems[0]).toMatchObject({ field: 'keyHash', rule: 'matches' });
    });

    it('revokeApiKey revokes, publishes accessChanged, and the key stops verifying', async () => {
      const revoked = await request<RevokedApiKey>(Subjects.tenantInfo.revokeApiKey, {
        keyId: issued.id,
      });
      expect(revoked).toEqual({
        id: issued.id,
        tenantId: eta,
        revokedAt: expect.stringMatching(/Z$/),
      });
      const event = await waitFor(() => events.find((e) => e.keyId === issued.id));
      expect(event).toEqual({ tenantId: eta, keyId: issued.id });

      const reply = await request<VerifyApiKeyReply>(Subjects.tenantInfo.verifyApiKey, {
        keyHash: hashApiKey(issued.key),
      });
      expect(reply).toEqual({ valid: false });

      // Revoking again keeps the first date.
      const again = await request<RevokedApiKey>(Subjects.tenantInfo.revokeApiKey, {
        keyId: issued.id,
      });
      expect(again.revokedAt).toBe(revoked.revokedAt);
    });

    it('revokeApiKey answers 404 for an unknown key', async () => {
      const keyId = randomUUID();
      const err = await rejection(request(Subjects.tenantInfo.revokeApiKey, { keyId }));
      expect(err.status).toBe(404);
      expect(err.args).toMatchObject({ resource: 'ApiKey', id: keyId });
    });
  });
});
