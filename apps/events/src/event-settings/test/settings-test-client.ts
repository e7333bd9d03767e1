import { runSql, ServiceTestClient } from '@crm/testing';
import type { RunningService } from '../../test/service-harness';

// Calls of the event settings integration tests against a running events service.

/** System entries of contributor-roles (settings-lists.ts): fixed ids every tenant has. */
const sys = (n: number) => `00000000-0000-4000-9e00-${String(n).padStart(12, '0')}`;
export const SYS = { speaker: sys(101), moderator: sys(102) } as const;

export function settingsTestClient(svc: RunningService) {
  const api = new ServiceTestClient(svc.url);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    runSql<T>(svc.databaseUrl, text, params);
  return { rest: api.restAs, gql: api.graphqlAs, sql };
}

/** The `[field, rule]` pairs of a 400's errors. */
export const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

/** A valid booking form field set's data. */
export const FIELD_SET = {
  fields: [
    { key: 'company', label: 'Company', type: 'text', required: true },
    {
      key: 'diet',
      label: 'Diet',
      type: 'select',
      required: false,
      options: ['none', 'vegetarian', 'vegan'],
    },
  ],
};

/** A valid cancellation condition's data. */
export const CONDITION = {
  tiers: [
    { daysBeforeStart: 30, feePercent: 0, feeFixed: '0.00' },
    { daysBeforeStart: 14, feePercent: 50, feeFixed: '5.00' },
    { daysBeforeStart: 0, feePercent: 100, feeFixed: '0' },
  ],
};
