import { freePort, natsServer, Stack, StackOptions, startStack, tenantHeaders } from '@crm/testing';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The services behind the gateway in these tests (the ones that exist today). */
export const SERVICES = ['tenant-info', 'crm-people', 'crm-companies'];

/** The stack of event-management tests: the CRM stack and the events service. */
export const EVENT_SERVICES = [...SERVICES, 'events'];

/** Events with bookings-invitations (the publication check asks it for ticket types). */
export const BOOKING_SERVICES = [...EVENT_SERVICES, 'bookings-invitations'];

export interface TestTenant {
  id: string;
  key: string;
  keyId: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field in tests
  body: any;
}

/** A client of the running stack: REST, GraphQL and admin calls over real HTTP. */
export class Client {
  constructor(readonly stack: Stack) {}

  async raw(path: string, init: RequestInit = {}): Promise<Answer> {
    const res = await fetch(`${this.stack.gatewayUrl}${path}`, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body };
  }

  /** A REST call under /v1/crm as tenant `t` with its key (override headers with `headers`). */
  rest(
    t: TestTenant,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string | undefined> = {},
  ): Promise<Answer> {
    const h: Record<string, string> = { ...tenantHeaders(t.id), Authorization: `Bearer ${t.key}` };
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) delete h[k];
      else h[k] = v;
    }
    return this.raw(`/v1/crm${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  graphql(
    t: TestTenant,
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string | undefined> = {},
  ): Promise<Answer> {
    const h: Record<string, string> = { ...tenantHeaders(t.id), Authorization: `Bearer ${t.key}` };
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) delete h[k];
      else h[k] = v;
    }
    return this.raw('/graphql', {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ query, variables }),
    });
  }

  admin(
    method: string,
    path: string,
    body?: unknown,
    token = this.stack.adminToken,
  ): Promise<Answer> {
    return this.raw(`/v1/admin${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** Creates a tenant on `tariffId` with one API key, through the admin API. */
  async tenant(tariffId = 'complete', prefix = 'e2e'): Promise<TestTenant> {
    const id = `${prefix}-${randomUUID().slice(0, 8)}`;
    const created = await this.admin('POST', '/tenants', {
      id,
      name: `Tenant ${id}`,
      contact: { email: `owner@${id}.example.com` },
    });
    if (created.status !== 201) throw new Error(`create tenant: ${JSON.stringify(created.body)}`);
    const tariff = await this.admin('PUT', `/tenants/${id}/tariff`, { tariffId });
    if (tariff.status !== 200) throw new Error(`set tariff: ${JSON.stringify(tariff.body)}`);
    return this.issueKey(id, { name: 'e2e' });
  }

  /** Issues another key of tenant `id` (`scopes`, `expiresAt` as the admin API takes them). */
  async issueKey(
    id: string,
    body: { name: string; scopes?: string[]; expiresAt?: string },
  ): Promise<TestTenant> {
    const key = await this.admin('POST', `/tenants/${id}/api-keys`, body);
    if (key.status !== 201) throw new Error(`issue key: ${JSON.stringify(key.body)}`);
    return { id, key: key.body.data.key, keyId: key.body.data.id };
  }
}

export async function startClient(name: string, services = SERVICES): Promise<Client> {
  return new Client(await startStack(name, services));
}

/**
 * A stack on a nats-server of its own, stopped with the stack: no service of another stack on
 * the shared NATS answers its requests (a bookings-invitations with another database would
 * answer events' publication check) or takes its stream's events. `env` goes to every process;
 * `replicas`: services run as several processes behind one name (StackOptions.replicas).
 */
export async function startIsolatedClient(
  name: string,
  services: string[],
  env: Record<string, string> = {},
  replicas: StackOptions['replicas'] = {},
): Promise<Client> {
  const store = mkdtempSync(path.join(os.tmpdir(), `${name}-nats-`));
  const nats = await natsServer(await freePort(), store);
  const stack = await startStack(name, services, {
    env: { ...env, NATS_URL: nats.url },
    replicas,
  }).catch(async (err: unknown) => {
    await nats.stop();
    throw err;
  });
  const shutdown = stack.shutdown.bind(stack);
  stack.shutdown = async () => {
    await shutdown();
    await nats.stop();
    rmSync(store, { recursive: true, force: true });
  };
  return new Client(stack);
}

/** Retries `check` until it passes or `ms` elapse (for effects that take "seconds", e.g. revocation). */
export async function eventually(check: () => Promise<void>, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** An ISO instant `days` from now, at `hourUtc`:00 UTC when given (else at the current time). */
export function inDays(days: number, hourUtc?: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  if (hourUtc !== undefined) d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
}
