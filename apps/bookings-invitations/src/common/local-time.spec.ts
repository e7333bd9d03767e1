import { localTime } from './local-time';

describe('localTime', () => {
  const at = new Date('2026-11-27T13:01:37.887Z');

  it("writes a moment in the event's zone and the caller's language", () => {
    expect(localTime(at, 'Europe/Berlin', 'de')).toBe('27.11.2026, 14:01');
    expect(localTime(at, 'Europe/Berlin', 'en')).toMatch(/^Nov 27, 2026, 2:01\sPM$/);
    expect(localTime(at, 'America/New_York', 'en')).toMatch(/^Nov 27, 2026, 8:01\sAM$/);
  });

  it('falls back to English for another language and to UTC without a usable zone', () => {
    expect(localTime(at, 'Europe/Berlin', 'fr')).toMatch(/^Nov 27, 2026, 2:01\sPM$/);
    expect(localTime(at, null, 'de')).toBe('27.11.2026, 13:01');
    expect(localTime(at, 'Mars/Olympus', 'de')).toBe('27.11.2026, 13:01');
  });
});
