import { randomUUID } from 'node:crypto';
import { tenantHeaders } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import type { PeopleSettingsList } from '../generated/prisma/client';
import { RunningService, startCrmPeople } from '../test/service-harness';

// Shared by the integration tests of business cards: a running crm-people and small helpers.

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field in tests
  body: any;
  text: string;
}

export class CardTestKit {
  readonly A = `tenant-a-${randomUUID().slice(0, 8)}`;
  readonly B = `tenant-b-${randomUUID().slice(0, 8)}`;

  private constructor(readonly svc: RunningService) {}

  static async start(dbName: string): Promise<CardTestKit> {
    return new CardTestKit(await startCrmPeople(dbName));
  }

  get prisma(): PrismaService {
    return this.svc.app.get(PrismaService);
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    tenant = this.A,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const res = await fetch(`${this.svc.url}/v1/crm${path}`, {
      method,
      headers: tenantHeaders(tenant, extra),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON (vCard) */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  async gql(
    query: string,
    variables: Record<string, unknown> = {},
    tenant = this.A,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const res = await fetch(`${this.svc.url}/graphql`, {
      method: 'POST',
      headers: tenantHeaders(tenant, extra),
      body: JSON.stringify({ query, variables }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
  }

  /** A person of `tenant` (through P3), returns its id. */
  async person(tenant = this.A, body: Record<string, unknown> = {}): Promise<string> {
    const res = await this.call(
      'POST',
      '/people',
      { firstname: 'Anna', lastname: 'Schmidt', ...body },
      tenant,
    );
    if (res.status !== 201) throw new Error(`create person: ${res.text}`);
    return res.body.data.id;
  }

  /** An entry of a tenant's settings list (the settings API is another part of the service). */
  async entry(tenant: string, list: PeopleSettingsList, text: string): Promise<string> {
    const row = await this.prisma.settingsEntry.create({ data: { tenantId: tenant, list, text } });
    return row.id;
  }

  async card(personId: string, body: Record<string, unknown> = {}, tenant = this.A) {
    const res = await this.call('POST', `/people/${personId}/business-cards`, body, tenant);
    if (res.status !== 201) throw new Error(`create card: ${res.text}`);
    return res.body.data;
  }

  async close(): Promise<void> {
    await this.svc?.app.close();
  }
}
