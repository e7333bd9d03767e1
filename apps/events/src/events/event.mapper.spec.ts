import { toContactPerson, toContributors, toVenue, venueLine } from './event.mapper';
import { publishedEventProblems } from './publication-rules';
import { isTimeZone } from './dto/time-zone.validator';

describe('event mapper', () => {
  it('reads JSON columns defensively (anything else is null or empty)', () => {
    expect(toVenue(null)).toBeNull();
    expect(toVenue([])).toBeNull();
    expect(toVenue({ city: 'Berlin', zip: 5 })).toEqual({
      name: null,
      street: null,
      zip: null,
      city: 'Berlin',
      country: null,
    });
    expect(toContactPerson('x')).toBeNull();
    expect(toContributors({})).toEqual([]);
    expect(toContributors([{ name: 'A', roleId: 'r' }, 'junk'])).toEqual([
      { name: 'A', roleId: 'r', personId: null },
    ]);
  });

  it('writes a venue on one line, leaving out what is missing', () => {
    expect(
      venueLine({ name: 'Hall', street: 'Main 1', zip: '10115', city: 'Berlin', country: 'DE' }),
    ).toBe('Hall, Main 1, 10115 Berlin, DE');
    expect(venueLine({ name: null, street: null, zip: null, city: 'Berlin', country: null })).toBe(
      'Berlin',
    );
    expect(
      venueLine({ name: null, street: null, zip: null, city: null, country: null }),
    ).toBeNull();
    expect(venueLine(null)).toBeNull();
  });
});

describe('publishedEventProblems', () => {
  it('names start, end and place when missing', () => {
    expect(
      publishedEventProblems({
        startsAt: null,
        endsAt: null,
        venue: null,
        onlineMeeting: null,
      }).map((p) => [p.field, p.rule]),
    ).toEqual([
      ['startsAt', 'requiredToPublish'],
      ['endsAt', 'requiredToPublish'],
      ['venue', 'venueOrOnlineMeeting'],
    ]);
    const d = new Date();
    expect(
      publishedEventProblems({ startsAt: d, endsAt: d, venue: null, onlineMeeting: {} }),
    ).toEqual([]);
  });
});

describe('isTimeZone', () => {
  it('takes IANA zones and UTC, refuses anything else', () => {
    for (const z of [
      'Europe/Berlin',
      'America/New_York',
      'UTC',
      'Asia/Kolkata',
      'Asia/Calcutta',
      'Etc/GMT+1',
    ]) {
      expect([z, isTimeZone(z)]).toEqual([z, true]);
    }
    for (const z of ['', 'Mars/Olympus', 'CET+1', 'berlin', 'europe/berlin', 5, null]) {
      expect([z, isTimeZone(z)]).toEqual([z, false]);
    }
  });
});
