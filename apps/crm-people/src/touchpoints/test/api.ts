import { ServiceTestClient } from '@crm/testing';
import type { RunningService } from '../../test/service-harness';

/** REST and GraphQL calls against a running crm-people, as one tenant. */
export function apiOf(svc: () => RunningService) {
  const api = new ServiceTestClient(() => svc().url);
  const { restAs: call, graphqlAs: gql } = api;
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
