import { backoffMs } from './backoff';
import { durableName } from './event-consumer';
import { uuidv7 } from './uuid7';

describe('backoffMs', () => {
  it('doubles from the base per attempt and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000, 60_000))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(7, 1000, 60_000)).toBe(60_000);
    expect(backoffMs(1000, 1000, 60_000)).toBe(60_000);
    expect(backoffMs(0, 500, 10_000)).toBe(500);
  });
});

describe('durableName', () => {
  it('is a valid JetStream durable name per service and subject', () => {
    expect(durableName('crm-companies', 'crm-people.people.merged')).toBe(
      'crm-companies__crm-people_people_merged',
    );
    expect(durableName('svc', 'a.*.>')).not.toMatch(/[.*>]/);
  });
});

describe('uuidv7', () => {
  it('is a version 7 UUID (the uuid column accepts it)', () => {
    expect(uuidv7()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('sorts in creation order, also within one millisecond and past 4096 ids in it', () => {
    const ms = Date.now() + 10_000;
    const ids = Array.from({ length: 5000 }, () => uuidv7(ms));
    expect([...ids].sort()).toEqual(ids);
    const later = uuidv7(ms + 5);
    expect(later > ids[ids.length - 1]).toBe(true);
  });
});
