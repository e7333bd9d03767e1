import { tenantHeaders } from '@crm/testing';
import type { RunningService } from '../../test/service-harness';

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field in tests
  body: any;
}

/** REST and GraphQL calls against a running crm-people, as one tenant. */
export function apiOf(svc: () => RunningService) {
  const call = async (
    tenant: string,
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Answer> => {
    const res = await fetch(`${svc().url}/v1/crm${path}`, {
      method,
      headers: tenantHeaders(tenant, extra),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const gql = async (
    tenant: string,
    query: string,
    variables: Record<string, unknown> = {},
    extra: Record<string, string> = {},
  ): Promise<Answer> => {
    const res = await fetch(`${svc().url}/graphql`, {
      method: 'POST',
      headers: tenantHeaders(tenant, extra),
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: await res.json() };
  };
  /** A person of `tenant`; returns its id. */
  const person = async (tenant: string, lastname: string): Promise<string> => {
    const res = await call(tenant, 'POST', '/people', { firstname: 'T', lastname });
    if (res.status !== 201) throw new Error(`create person: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };
  /** A touchpoint of `tenant` with sensible defaults; returns the created resource. */
  const touchpoint = async (
    tenant: string,
    personIds: string[],
    fields: Record<string, unknown> = {},
  ) => {
    const res = await call(tenant, 'POST', '/touchpoints', {
      type: 'call',
      subject: 'Call',
      start: '2026-01-10T09:00:00Z',
      personIds,
      ...fields,
    });
    if (res.status !== 201) throw new Error(`create touchpoint: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return { call, gql, person, touchpoint };
}
