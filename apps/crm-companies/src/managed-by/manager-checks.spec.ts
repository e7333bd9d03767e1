import type { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import type { MessageBus, PeopleExistReply, PeopleExistRequest } from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import { ManagerChecks, pairKey } from './manager-checks.service';
import type { TombstonesRepository } from './tombstones.repository';

// The confirmation rules without NATS: which requests go to crm-people and how the answers
// become 400, 404 or 503 (the real exchange is in the integration tests).

const ctx = { tenantId: 't1', language: 'en' } as RequestContext;
const id = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;
const i18n = { t: (key: string) => key } as unknown as I18nService;

function checksWith(answer: (req: PeopleExistRequest) => PeopleExistReply | null) {
  const asked: PeopleExistRequest[] = [];
  const bus = {
    request: async (_subject: string, req: PeopleExistRequest) => {
      asked.push(req);
      return answer(req);
    },
  } as unknown as MessageBus;
  // confirm never reads the tombstones (holdPeople does, in a transaction)
  return { checks: new ManagerChecks(bus, i18n, {} as TombstonesRepository), asked };
}

const ref = (i: number, personId?: string, managerRoleId?: string) => ({
  personId,
  managerRoleId,
  personField: `[${i}].personId`,
  roleField: `[${i}].managerRoleId`,
});

async function failure(p: Promise<unknown>): Promise<AppException> {
  try {
    await p;
  } catch (err) {
    return err as AppException;
  }
  throw new Error('expected a failure');
}

describe('ManagerChecks.confirm', () => {
  it('asks nothing when there is nothing new to confirm', async () => {
    const { checks, asked } = checksWith(() => ({ missingPersonIds: [] }));
    await checks.confirm(ctx, [ref(0)]);
    expect(asked).toEqual([]);
  });

  it('asks once for every person and role (each once, lower case)', async () => {
    const { checks, asked } = checksWith(() => ({
      missingPersonIds: [],
      unknownManagerRoleIds: [],
    }));
    await checks.confirm(ctx, [
      ref(0, id(1), id(10)),
      ref(1, id(2).toUpperCase(), id(11)),
      ref(2, id(1), id(10).toUpperCase()),
    ]);
    expect(asked).toEqual([
      { tenantId: 't1', personIds: [id(1), id(2)], managerRoleIds: [id(10), id(11)] },
    ]);
  });

  it('unknown roles -> 400 naming every item with one; checked before people', async () => {
    const { checks } = checksWith((r) => ({
      missingPersonIds: r.personIds,
      unknownManagerRoleIds: (r.managerRoleIds ?? []).filter((x) => x !== id(10)),
    }));
    const err = await failure(
      checks.confirm(ctx, [ref(0, id(1), id(10)), ref(1, id(1), id(11)), ref(2, id(2), id(11))]),
    );
    expect(err.status).toBe(400);
    expect(err.problems.map((p) => [p.field, p.rule])).toEqual([
      ['[1].managerRoleId', 'unknownManagerRole'],
      ['[2].managerRoleId', 'unknownManagerRole'],
    ]);
  });

  it('unknown people -> 404 naming each item and the ids once', async () => {
    const { checks } = checksWith(() => ({
      missingPersonIds: [id(2)],
      unknownManagerRoleIds: [],
    }));
    const err = await failure(
      checks.confirm(ctx, [ref(0, id(1), id(10)), ref(1, id(2), id(10)), ref(2, id(2), id(10))]),
    );
    expect(err.status).toBe(404);
    expect(err.args).toMatchObject({ id: id(2) });
    expect(err.problems.map((p) => p.field)).toEqual(['[1].personId', '[2].personId']);
  });

  it('an answer it cannot read counts as none: 503 naming crm-people', async () => {
    const { checks } = checksWith(() => null);
    const err = await failure(checks.confirm(ctx, [ref(0, id(1))]));
    expect(err.status).toBe(503);
    expect(err.args).toEqual({ service: 'crm-people' });
  });

  it('an answer of the first contract (no unknownManagerRoleIds) is no confirmation: 503', async () => {
    const { checks } = checksWith(() => ({ missingPersonIds: [], managerRoleExists: true }));
    const err = await failure(checks.confirm(ctx, [ref(0, id(1), id(10))]));
    expect(err.status).toBe(503);
  });
});

describe('pairKey', () => {
  it('compares person and role ignoring the case of the UUIDs', () => {
    expect(pairKey({ personId: id(1).toUpperCase(), managerRoleId: id(2) })).toBe(
      pairKey({ personId: id(1), managerRoleId: id(2).toUpperCase() }),
    );
  });
});

describe('periodProblems', () => {
  const { checks } = checksWith(() => null);
  it('refuses until before since, accepts equal or open ends', () => {
    const d = (s: string) => new Date(s);
    expect(
      checks.periodProblems({ since: d('2024-02-01'), until: d('2024-01-01') }, '[3].'),
    ).toEqual([
      expect.objectContaining({
        field: '[3].until',
        rule: 'notBefore',
        args: expect.objectContaining({ other: '[3].since' }),
      }),
    ]);
    expect(checks.periodProblems({ since: d('2024-01-01'), until: d('2024-01-01') }, '')).toEqual(
      [],
    );
    expect(checks.periodProblems({ since: null, until: d('2024-01-01') }, '')).toEqual([]);
  });
});
