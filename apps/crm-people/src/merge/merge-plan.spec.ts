import { fillFields, joinNotes, planCards, planTags, unionList } from './merge-fields.plan';
import type { PersonFields, TagRow } from './merge-fields.plan';
import { planRelations, planTouchpoints, RelationRow } from './merge-links.plan';

const T = 'target';
const at = (d: string) => new Date(`2024-01-${d}T00:00:00Z`);

function rel(
  id: string,
  from: string,
  to: string,
  type: string,
  inverseId: string,
  day = '01',
  isFavorite = false,
): RelationRow {
  return {
    id,
    tenantId: 't',
    fromPersonId: from,
    toPersonId: to,
    typeIdentifier: type,
    inverseId,
    isFavorite,
    dateCreated: at(day),
  };
}

describe('planRelations', () => {
  it("keeps the target's row of a repeat, with the favorite flag of any of them", () => {
    const plan = planRelations(
      T,
      ['s1'],
      [
        rel('a', T, 'x', 'colleague', 'a2', '05'),
        rel('a2', 'x', T, 'colleague', 'a', '05'),
        rel('b', 's1', 'x', 'colleague', 'b2', '01', true),
        rel('b2', 'x', 's1', 'colleague', 'b', '01'),
      ],
    );
    expect(plan.deleteIds.sort()).toEqual(['b', 'b2']);
    expect(plan.updates).toEqual([{ id: 'a', isFavorite: true }]);
    expect(plan.repointFromIds).toEqual([]);
    expect(plan).toMatchObject({ moved: 0, duplicatesDropped: 1, selfDropped: 0 });
    expect(plan.targetRelations.map((r) => [r.id, r.isFavorite])).toEqual([['a', true]]);
  });

  it('drops relations between the merged people (both directions)', () => {
    const plan = planRelations(
      T,
      ['s1', 's2'],
      [
        rel('a', 's1', 's2', 'friend', 'a2'),
        rel('a2', 's2', 's1', 'friend', 'a'),
        rel('b', T, 's1', 'spouse', 'b2'),
        rel('b2', 's1', T, 'spouse', 'b'),
      ],
    );
    expect(plan.deleteIds.sort()).toEqual(['a', 'a2', 'b', 'b2']);
    expect(plan).toMatchObject({ selfDropped: 4, moved: 0, targetRelations: [] });
  });

  it('re-points both directions and relinks inverses when the kept rows come from two pairs', () => {
    // Two sources each related to x in the same way, written at the same time: the oldest-first
    // rule with the id as tie-break keeps "a" on one side and "b2" on the other.
    const plan = planRelations(
      T,
      ['s1', 's2'],
      [
        rel('a', 's1', 'x', 'manager', 'z-a2'),
        rel('z-a2', 'x', 's1', 'employee', 'a'),
        rel('c', 's2', 'x', 'manager', 'b2'),
        rel('b2', 'x', 's2', 'employee', 'c'),
      ],
    );
    expect(plan.deleteIds.sort()).toEqual(['c', 'z-a2']);
    expect(plan.repointFromIds).toEqual(['a']);
    expect(plan.repointToIds).toEqual(['b2']);
    expect(plan.updates.sort((p, q) => p.id.localeCompare(q.id))).toEqual([
      { id: 'a', inverseId: 'b2' },
      { id: 'b2', inverseId: 'a' },
    ]);
    expect(plan).toMatchObject({ moved: 1, duplicatesDropped: 1 });
    expect(plan.targetRelations).toEqual([
      expect.objectContaining({ id: 'a', fromPersonId: T, toPersonId: 'x', inverseId: 'b2' }),
    ]);
  });
});

describe('planTouchpoints', () => {
  it('moves participations; one per touchpoint when the target or an earlier source is in', () => {
    const plan = planTouchpoints(
      T,
      ['s1', 's2'],
      [
        { touchpointId: 'both', personId: T },
        { touchpointId: 'both', personId: 's1' },
        { touchpointId: 'shared', personId: 's1' },
        { touchpointId: 'shared', personId: 's2' },
        { touchpointId: 'own', personId: 's2' },
      ],
    );
    expect(plan).toEqual({
      moved: 2,
      drop: [
        { touchpointId: 'both', personId: 's1' },
        { touchpointId: 'shared', personId: 's2' },
      ],
    });
  });
});

function person(over: Partial<PersonFields>): PersonFields {
  return {
    id: 'p',
    salutation: null,
    title: null,
    firstname: null,
    lastname: null,
    customerNumber: null,
    userMail: null,
    employeeStatus: null,
    employeeNumber: null,
    userId: null,
    birthday: null,
    considerBirthYear: null,
    lifecycleId: null,
    lifecycleChanged: null,
    importantDates: [],
    socialMedias: [],
    ...over,
  };
}

describe('fillFields', () => {
  it('fills empty (or blank) fields from the first source that has a value; never overwrites', () => {
    const { data, filled } = fillFields(
      person({ firstname: 'Anna', title: '  ', lifecycleId: 'l0' }),
      [
        person({ firstname: 'Other', lastname: null }),
        person({ title: 'Dr.', lastname: 'Schmidt', birthday: at('02'), considerBirthYear: false }),
        person({ title: 'Prof.', lifecycleId: 'l1' }),
      ],
    );
    expect(data).toEqual({
      title: 'Dr.',
      lastname: 'Schmidt',
      birthday: at('02'),
      considerBirthYear: false,
    });
    expect(filled).toEqual(['title', 'lastname', 'birthday']);
  });
});

describe('unionList', () => {
  it("appends the sources' entries that the target lacks, once", () => {
    const d = { text: 'Joined', date: '2020' };
    expect(
      unionList([d], [[{ ...d }, { text: 'Party' }], [{ text: 'Party' }]], ['text', 'date']),
    ).toEqual({
      list: [d, { text: 'Party' }],
      added: 1,
    });
    expect(unionList(null, [[d]], ['text', 'date'])).toEqual({ list: [d], added: 1 });
  });
});

describe('joinNotes', () => {
  it("appends each source's note under a line with its name; empty notes add nothing", () => {
    expect(
      joinNotes('Mine', [
        { name: 'Anna S', note: 'Hers' },
        { name: 'Bob', note: '  ' },
        { name: 'Carl', note: 'His' },
      ]),
    ).toEqual({
      note: 'Mine\n\n--- Anna S ---\nHers\n\n--- Carl ---\nHis',
      joined: 2,
      length: 43,
      tooLong: false,
    });
    expect(joinNotes(null, [{ name: 'X', note: 'n' }]).note).toBe('--- X ---\nn');
    expect(joinNotes('keep', [{ name: 'X', note: null }])).toMatchObject({
      note: 'keep',
      joined: 0,
    });
  });

  it('counts characters, not UTF-16 units, against the 10000 limit', () => {
    const ok = joinNotes('😀'.repeat(9990), [{ name: 'X', note: null }]);
    expect(ok).toMatchObject({ length: 9990, tooLong: false });
    const long = joinNotes('a'.repeat(9990), [{ name: 'X', note: 'b' }]);
    expect(long).toMatchObject({ length: 9990 + 2 + 10 + 1, tooLong: true });
  });
});

describe('planCards', () => {
  it("keeps the target's favorite, else the first source favorite", () => {
    const card = (id: string, isFavorite: boolean) => ({ id, isFavorite });
    expect(planCards([card('t', true)], [card('a', true), card('b', false)])).toEqual({
      moved: 2,
      demoteIds: ['a'],
    });
    expect(planCards([card('t', false)], [card('a', true), card('b', true)])).toEqual({
      moved: 2,
      demoteIds: ['b'],
    });
  });
});

describe('planTags', () => {
  it('adds the missing tags after the last position of the target', () => {
    const tag = (
      personId: string,
      entryId: string,
      kind: TagRow['kind'],
      position: number,
    ): TagRow => ({
      tenantId: 't',
      personId,
      entryId,
      kind,
      position,
      entry: { text: entryId, category: null },
    });
    const plan = planTags(
      T,
      [tag(T, 'vip', 'ORGA', 0), tag(T, 'calm', 'PERSONALITY', 1)],
      [tag('s', 'vip', 'ORGA', 0), tag('s', 'board', 'ORGA', 1), tag('s', 'vip', 'PERSONALITY', 2)],
    );
    expect(plan.added.map((t) => [t.personId, t.entryId, t.kind, t.position])).toEqual([
      [T, 'board', 'ORGA', 2],
      [T, 'vip', 'PERSONALITY', 3],
    ]);
    expect(plan).toMatchObject({ orga: 1, personalities: 1 });
  });
});
