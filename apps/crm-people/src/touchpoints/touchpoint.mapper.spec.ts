import { calculate, toTouchpoint } from './touchpoint.mapper';
import type { TouchpointRecord } from './touchpoints.repository';

const NOW = new Date('2026-06-15T12:00:00Z');
const at = (iso: string) => new Date(iso);

describe('calculate', () => {
  it('derives the duration in whole minutes from start and end', () => {
    const c = calculate(
      {
        start: at('2026-06-01T09:00:00Z'),
        end: at('2026-06-01T10:30:59Z'),
        moods: [],
        participants: 2,
      },
      NOW,
    );
    expect(c.durationMinutes).toBe(90);
    expect(c.participantCount).toBe(2);
  });

  it('has no duration without an end', () => {
    expect(
      calculate({ start: at('2026-06-01T09:00:00Z'), end: null, moods: [], participants: 1 }, NOW)
        .durationMinutes,
    ).toBeNull();
  });

  it('is past once its end has passed, upcoming before its start, neither while under way', () => {
    const past = calculate(
      {
        start: at('2026-06-15T10:00:00Z'),
        end: at('2026-06-15T11:59:59Z'),
        moods: [],
        participants: 1,
      },
      NOW,
    );
    expect([past.isPast, past.isUpcoming]).toEqual([true, false]);
    const ongoing = calculate(
      {
        start: at('2026-06-15T11:00:00Z'),
        end: at('2026-06-15T13:00:00Z'),
        moods: [],
        participants: 1,
      },
      NOW,
    );
    expect([ongoing.isPast, ongoing.isUpcoming]).toEqual([false, false]);
    const upcoming = calculate(
      { start: at('2026-06-15T12:00:01Z'), end: null, moods: [], participants: 1 },
      NOW,
    );
    expect([upcoming.isPast, upcoming.isUpcoming]).toEqual([false, true]);
    const moment = calculate(
      { start: at('2026-06-15T11:59:59Z'), end: null, moods: [], participants: 1 },
      NOW,
    );
    expect([moment.isPast, moment.isUpcoming]).toEqual([true, false]);
  });

  it('takes the newest (last) mood as the current one', () => {
    const moods = [{ mood: 'bad' }, { mood: 'good' }];
    expect(calculate({ start: NOW, end: null, moods, participants: 1 }, NOW).currentMood).toBe(
      'good',
    );
    expect(
      calculate({ start: NOW, end: null, moods: [], participants: 1 }, NOW).currentMood,
    ).toBeNull();
  });
});

describe('toTouchpoint', () => {
  it('maps a record to the resource with ISO dates, ids and the calculated fields', () => {
    const record = {
      id: 't1',
      tenantId: 'x',
      type: 'call',
      subject: 'Hello',
      description: null,
      start: at('2026-06-01T09:00:00Z'),
      end: at('2026-06-01T09:15:00Z'),
      companyId: null,
      priority: 2,
      createdBy: 'a',
      modifiedBy: 'b',
      createdByUserId: null,
      modifiedByUserId: null,
      dateCreated: at('2026-05-01T00:00:00Z'),
      dateModified: at('2026-05-02T00:00:00Z'),
      people: [{ personId: 'p1' }, { personId: 'p2' }],
      moods: [
        {
          id: 'm1',
          tenantId: 'x',
          touchpointId: 't1',
          mood: 'neutral',
          comment: 'ok',
          createdBy: 'a',
          dateCreated: at('2026-06-01T09:20:00Z'),
        },
      ],
      tags: [{ entryId: 'g1', entry: { text: 'VIP' } }],
    } satisfies TouchpointRecord;
    expect(toTouchpoint(record, NOW)).toEqual({
      id: 't1',
      type: 'call',
      subject: 'Hello',
      description: null,
      start: '2026-06-01T09:00:00.000Z',
      end: '2026-06-01T09:15:00.000Z',
      personIds: ['p1', 'p2'],
      companyId: null,
      priority: 2,
      moods: [
        {
          id: 'm1',
          mood: 'neutral',
          comment: 'ok',
          createdBy: 'a',
          dateCreated: '2026-06-01T09:20:00.000Z',
        },
      ],
      tags: [{ id: 'g1', text: 'VIP' }],
      durationMinutes: 15,
      isPast: true,
      isUpcoming: false,
      currentMood: 'neutral',
      participantCount: 2,
      createdBy: 'a',
      modifiedBy: 'b',
      createdByUserId: null,
      modifiedByUserId: null,
      dateCreated: '2026-05-01T00:00:00.000Z',
      dateModified: '2026-05-02T00:00:00.000Z',
    });
  });
});
