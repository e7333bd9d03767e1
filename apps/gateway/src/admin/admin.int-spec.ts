import { randomBytes, randomUUID } from 'node:crypto';
import { ErrorCode } from '@crm/errors';
import type {
  IssueApiKeyRequest,
  TariffSummary,
  TenantSummary,
  VerifyApiKeyReply,
} from '@crm/messaging';
import { API_KEY_SCOPES, Subjects } from '@crm/messaging';
import { tenantHeaders } from '@crm/testing';
import {
  ADMIN_TOKEN,
  bootGateway,
  closedPortUrl,
  RunningGateway,
  json,
} from '../../test/support/gateway';
import { TenantInfoStub } from '../../test/support/tenant-info-stub';
import { startUpstream, Upstream } from '../../test/support/upstream';
import { hashApiKey } from '../auth/api-key.verifier';

// /v1/admin/** against a stand-in tenant-info on real NATS; the docs and the merged OpenAPI
// description against stand-in services over real HTTP.

const T = { id: 'acme', name: 'ACME', contact: { email: 'ops@acme.example' } };
const summary = (id: string, tariffId: string | null = 'starter'): TenantSummary => ({
  id,
  name: 'ACME',
  contact: { email: 'ops@acme.example' },
  tariffId,
  dateCreated: '2026-01-01T00:00:00.000Z',
});
const TARIFFS: TariffSummary[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: null,
    modules: [{ module: 'crm', name: 'CRM', functions: ['people'] }],
  },
];
const TENANT_KEY = `admin-tenant-key-${randomBytes(8).toString('hex')}`;
const keys = new Map<string, VerifyApiKeyReply>([
  [
    hashApiKey(TENANT_KEY),
    { valid: true, keyId: randomUUID(), tenantId: 'acme', modules: ['crm'] },
  ],
]);

let stub: TenantInfoStub;
let people: Upstream;
let gw: RunningGateway;

function admin(method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return fetch(`${gw.url}/v1/admin${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  stub = await TenantInfoStub.start();
  await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
    response: keys.get((data as { keyHash: string }).keyHash) ?? { valid: false },
  }));
  await stub.answer(Subjects.tenantInfo.createTenant, (data) => {
    const { id } = data as { id: string };
    if (id === 'taken') {
      return {
        err: {
          code: ErrorCode.CONFLICT,
          messageKey: 'errors.conflict.exists',
          args: { resource: 'Tenant', id },
        },
      };
    }
    return { response: summary(id, null) };
  });
  await stub.answer(Subjects.tenantInfo.issueApiKey, (data) => {
    const { tenantId, name, scopes, expiresAt } = data as IssueApiKeyRequest;
    return {
      response: {
        id: randomUUID(),
        tenantId,
        name,
        prefix: 'crm_abcd',
        key: 'crm_abcdefghijklmnopqrstuvwxyz',
        scopes: scopes ?? [...API_KEY_SCOPES],
        expiresAt: expiresAt ?? null,
        dateCreated: '2026-01-01T00:00:00.000Z',
      },
    };
  });
  await stub.answer(Subjects.tenantInfo.revokeApiKey, (data) => ({
    response: {
      id: (data as { keyId: string }).keyId,
      tenantId: 'acme',
      revokedAt: '2026-01-02T00:00:00.000Z',
    },
  }));
  await stub.answer(Subjects.tenantInfo.setTenantTariff, (data) => {
    const { tenantId, tariffId } = data as { tenantId: string; tariffId: string };
    return { response: summary(tenantId, tariffId) };
  });
  people = await startUpstream();
  people.handlers.push((req, res) => {
    if (req.url !== '/v1/crm/openapi.json') return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'CRM people', version: '1.0.0' },
        paths: {
          '/v1/crm/people': {
            post: {
              operationId: 'create',
              tags: ['People'],
              responses: { '201': { description: 'ok' } },
            },
          },
        },
        tags: [{ name: 'People' }],
        components: { schemas: { Person: { type: 'object' } } },
      }),
    );
    return true;
  });
  gw = await bootGateway({
    CRM_PEOPLE_URL: people.url,
    CRM_COMPANIES_URL: await closedPortUrl(),
    EVENTS_URL: await closedPortUrl(),
    BOOKINGS_INVITATIONS_URL: await closedPortUrl(),
    TENANT_INFO_URL: await closedPortUrl(),
    GRAPHQL_SUBGRAPHS: 'crm-people',
    SUPERGRAPH_RETRY_MS: '600000',
    KEY_CACHE_TTL_MS: '600000',
  });
});

afterAll(async () => {
  await gw?.app.close();
  await people?.close();
  await stub?.close();
});

describe('admin credential', () => {
  it('401 envelope without a token, with a wrong one, and with a tenant API key', async () => {
    for (const token of [null, '', 'x'.repeat(32), ADMIN_TOKEN.slice(0, -1), TENANT_KEY]) {
      const res = await admin('GET', '/tariffs', undefined, token);
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({
        data: null,
        statusCode: 401,
        message: 'A valid administrator token is required',
      });
    }
    expect(stub.count(Subjects.tenantInfo.listTariffs)).toBe(0);
  });

  it('needs no tenant headers', async () => {
    await stub.answer(Subjects.tenantInfo.listTariffs, () => ({ response: TARIFFS }));
    const res = await admin('GET', '/tariffs');
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      data: TARIFFS,
      metaData: { totalResults: 1 },
      statusCode: 200,
    });
  });
});

describe('operations', () => {
  it('A1 creates a tenant (201) and passes the body to tenant-info', async () => {
    const res = await admin('POST', '/tenants', T);
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ data: summary('acme', null), statusCode: 201 });
    expect(
      stub.asked.filter((a) => a.subject === Subjects.tenantInfo.createTenant).at(-1)!.data,
    ).toEqual(T);
  });

  it('A1 validates the body and names every field, without asking tenant-info', async () => {
    const before = stub.count(Subjects.tenantInfo.createTenant);
    const res = await admin('POST', '/tenants', {
      id: 'has space',
      name: '',
      contact: { email: 'nope' },
      extra: 1,
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toMatchObject({ data: null, statusCode: 400 });
    const fields = body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['id', 'name', 'contact.email', 'extra']));
    expect(stub.count(Subjects.tenantInfo.createTenant)).toBe(before);
  });

  it('A1 answers 409 when tenant-info reports a conflict, translated', async () => {
    const res = await fetch(`${gw.url}/v1/admin/tenants`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        'Content-Type': 'application/json',
        'Accept-Language': 'de',
      },
      body: JSON.stringify({ id: 'taken', name: 'Taken' }),
    });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({
      data: null,
      statusCode: 409,
      message: 'Tenant taken existiert bereits',
    });
  });

  it('A2 issues a key (201) with the tenant from the path', async () => {
    const res = await admin('POST', '/tenants/acme/api-keys', { name: 'website' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.data).toMatchObject({ tenantId: 'acme', name: 'website', key: expect.any(String) });
    expect(
      stub.asked.filter((a) => a.subject === Subjects.tenantInfo.issueApiKey).at(-1)!.data,
    ).toEqual({
      tenantId: 'acme',
      name: 'website',
    });
    const bad = await admin('POST', '/tenants/acme/api-keys', { name: 'x', key: 'short' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors[0].field).toBe('key');
  });

  it('A2 passes scopes and expiry to tenant-info and answers them', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await admin('POST', '/tenants/acme/api-keys', {
      name: 'reader',
      scopes: ['crm:read', 'events:write'],
      expiresAt,
    });
    expect(res.status).toBe(201);
    expect((await json(res)).data).toMatchObject({
      scopes: ['crm:read', 'events:write'],
      expiresAt,
    });
    expect(
      stub.asked.filter((a) => a.subject === Subjects.tenantInfo.issueApiKey).at(-1)!.data,
    ).toEqual({
      tenantId: 'acme',
      name: 'reader',
      scopes: ['crm:read', 'events:write'],
      expiresAt,
    });
    const all = await json(await admin('POST', '/tenants/acme/api-keys', { name: 'all' }));
    expect(all.data).toMatchObject({ scopes: API_KEY_SCOPES, expiresAt: null });
  });

  it('A2 refuses wrong scopes (by index) and an expiry not ahead, without asking tenant-info', async () => {
    const before = stub.count(Subjects.tenantInfo.issueApiKey);
    const problems = async (body: object, lang = 'en') => {
      const res = await fetch(`${gw.url}/v1/admin/tenants/acme/api-keys`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${ADMIN_TOKEN}`,
          'Content-Type': 'application/json',
          'Accept-Language': lang,
        },
        body: JSON.stringify({ name: 'k', ...body }),
      });
      expect(res.status).toBe(400);
      return (await json(res)).errors as { field: string; rule: string; message: string }[];
    };
    expect(
      await problems({
        scopes: ['crm:read', 'events:write', 'crm:admin', 'crm:read'],
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      }),
    ).toEqual([
      {
        field: 'scopes[2]',
        rule: 'isIn',
        message: `scopes[2] must be one of: ${API_KEY_SCOPES.join(', ')}`,
      },
      {
        field: 'scopes[3]',
        rule: 'duplicateEntry',
        message: 'scopes[3] repeats an earlier entry of the list',
      },
      { field: 'expiresAt', rule: 'inFuture', message: 'expiresAt must be in the future' },
    ]);
    expect(
      await problems({ expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'de'),
    ).toEqual([
      { field: 'expiresAt', rule: 'inFuture', message: 'expiresAt muss in der Zukunft liegen' },
    ]);
    const shapes = await problems({ scopes: [], expiresAt: 'tomorrow' });
    expect(shapes.map((p) => [p.field, p.rule])).toEqual([
      ['scopes', 'arrayMinSize'],
      ['expiresAt', 'isIso8601'],
    ]);
    expect((await problems({ scopes: 'crm:read' })).map((p) => p.field)).toEqual(['scopes']);
    expect(stub.count(Subjects.tenantInfo.issueApiKey)).toBe(before);
  });

  it('A3 revokes a key; the tenant cached answers are dropped at once', async () => {
    const call = () =>
      fetch(`${gw.url}/v1/crm/people`, {
        headers: { ...tenantHeaders('acme'), Authorization: `Bearer ${TENANT_KEY}` },
      });
    expect((await call()).status).toBe(200);
    keys.set(hashApiKey(TENANT_KEY), { valid: false });
    expect((await call()).status).toBe(200); // cached (TTL of ten minutes in this file)
    const keyId = randomUUID();
    const res = await admin('DELETE', `/api-keys/${keyId}`);
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ id: keyId, tenantId: 'acme' });
    expect((await call()).status).toBe(401);
    const bad = await admin('DELETE', '/api-keys/not-a-uuid');
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors).toEqual([
      { field: 'keyId', rule: 'isUuid', message: 'keyId must be a UUID' },
    ]);
  });

  it('A5 puts a tenant on a tariff', async () => {
    const res = await admin('PUT', '/tenants/acme/tariff', { tariffId: 'complete' });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ id: 'acme', tariffId: 'complete' });
    expect(
      stub.asked.filter((a) => a.subject === Subjects.tenantInfo.setTenantTariff).at(-1)!.data,
    ).toEqual({
      tenantId: 'acme',
      tariffId: 'complete',
    });
    expect((await admin('PUT', '/tenants/acme/tariff', {})).status).toBe(400);
  });

  it('503 naming tenant-info when it does not answer', async () => {
    await stub.silence(Subjects.tenantInfo.listTariffs);
    const res = await admin('GET', '/tariffs');
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body).toMatchObject({ data: null, statusCode: 503 });
    expect(body.message).toContain('tenant-info');
  });

  it('a malformed JSON body is a 400 envelope', async () => {
    const res = await fetch(`${gw.url}/v1/admin/tenants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: '{"id":',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({
      data: null,
      statusCode: 400,
      message: 'The request body is not valid JSON',
    });
  });
});

describe('OpenAPI and docs (no headers, no key)', () => {
  it('merges the reachable services with the admin API and skips services that are down', async () => {
    const res = await fetch(`${gw.url}/v1/crm/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/crm/people',
        '/v1/admin/tenants',
        '/v1/admin/tenants/{id}/api-keys',
        '/v1/admin/api-keys/{keyId}',
        '/v1/admin/tariffs',
        '/v1/admin/tenants/{id}/tariff',
      ]),
    );
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/v1/crm/openapi'))).toBe(false);
    expect(doc.components.schemas).toHaveProperty('Person');
    expect(doc.components.schemas).toHaveProperty('CreateTenantBody');
    expect(doc.components.securitySchemes).toHaveProperty('admin');
    const scopes = { type: 'array', items: { type: 'string', enum: API_KEY_SCOPES } };
    expect(doc.components.schemas.IssueApiKeyBody.properties).toMatchObject({
      scopes: { ...scopes, minItems: 1, uniqueItems: true },
      expiresAt: { type: 'string', format: 'date-time' },
    });
    expect(doc.components.schemas.IssueApiKeyBody.required).toEqual(['name']);
    expect(doc.components.schemas.IssuedApiKeyDto.properties).toMatchObject({
      scopes,
      expiresAt: { type: 'string', format: 'date-time', nullable: true },
    });
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['People', 'Administration']),
    );
  });

  it('serves the docs page and its assets locally', async () => {
    const page = await fetch(`${gw.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<html/i);
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    const init = await fetch(`${gw.url}/docs/swagger-ui-init.js`);
    expect(init.status).toBe(200);
    expect(await init.text()).toContain('/v1/crm/people');
    const bundle = await fetch(`${gw.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(1000);
  });
});
