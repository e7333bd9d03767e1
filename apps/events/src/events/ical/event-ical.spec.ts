import ICAL from 'ical.js';
import type { EventRecord } from '../events.repository';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { eventsCalendar } from './event-ical';

const ROOT = path.resolve(__dirname, '../../../../..');

// The iCalendar output read back with an independent parser (ical.js): times in the event's
// zone with its VTIMEZONE, UID, SEQUENCE, STATUS, LOCATION, ORGANIZER.

const record = (over: Partial<EventRecord> = {}): EventRecord =>
  ({
    id: '7f1c7c1e-2b7a-4d43-9f54-2d2f6b7f0a01',
    tenantId: 't',
    title: 'Winter concert',
    subtitle: null,
    description: 'Strings, choir; and a comma, too',
    startsAt: new Date('2027-01-15T18:00:00Z'),
    endsAt: new Date('2027-01-15T21:30:00Z'),
    timeZone: 'Europe/Berlin',
    venue: {
      name: 'Kongresshalle',
      street: 'Hauptstr. 1',
      zip: '10115',
      city: 'Berlin',
      country: 'DE',
    },
    onlineMeeting: null,
    capacity: null,
    categoryId: null,
    contributors: [],
    contactPerson: { firstname: 'Erika', lastname: 'Muster', email: 'erika@example.com' },
    bookingFormFieldSetId: null,
    cancellationConditionId: null,
    taxRateId: null,
    note: 'SECRET NOTE',
    status: 'scheduled',
    published: true,
    publishedAt: null,
    sequence: 4,
    createdBy: null,
    modifiedBy: null,
    createdByUserId: null,
    modifiedByUserId: null,
    dateCreated: new Date('2026-11-01T10:00:00Z'),
    dateModified: new Date('2026-11-20T10:00:00Z'),
    tags: [],
    websites: [],
    ...over,
  }) as EventRecord;

/** Parses a calendar, registering its VTIMEZONEs so that times convert to UTC. */
function parse(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text));
  const zones = cal.getAllSubcomponents('vtimezone');
  for (const z of zones) ICAL.TimezoneService.register(new ICAL.Timezone(z));
  return { cal, zones, events: cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)) };
}

afterEach(() => ICAL.TimezoneService.reset());

describe('eventsCalendar', () => {
  it('writes an event at 19:00 Berlin in winter as 18:00Z, with its VTIMEZONE, UID and SEQUENCE', () => {
    const text = eventsCalendar([record()], {
      uidHost: 'crm-events',
      name: 'Cal',
      urlOf: () => 'https://portal.example/events/1',
    });
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20270115T190000');
    const { zones, events } = parse(text);
    expect(zones.map((z) => z.getFirstPropertyValue('tzid'))).toEqual(['Europe/Berlin']);
    const [e] = events;
    expect(e.uid).toBe('7f1c7c1e-2b7a-4d43-9f54-2d2f6b7f0a01@crm-events');
    expect(e.sequence).toBe(4);
    expect(e.startDate.zone?.tzid).toBe('Europe/Berlin');
    expect(e.startDate.hour).toBe(19);
    expect(e.startDate.toJSDate().toISOString()).toBe('2027-01-15T18:00:00.000Z');
    expect(e.endDate.toJSDate().toISOString()).toBe('2027-01-15T21:30:00.000Z');
    expect(e.summary).toBe('Winter concert');
    expect(e.description).toBe('Strings, choir; and a comma, too');
    expect(e.location).toBe('Kongresshalle, Hauptstr. 1, 10115 Berlin, DE');
    expect(e.organizer).toBe('mailto:erika@example.com');
    expect(e.component.getFirstProperty('organizer')?.getParameter('cn')).toBe('Erika Muster');
    expect(e.component.getFirstPropertyValue('url')).toBe('https://portal.example/events/1');
    expect(e.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(String(e.component.getFirstPropertyValue('last-modified'))).toBe('2026-11-20T10:00:00Z');
    expect(text).not.toContain('SECRET');
  });

  it('keeps summer time, other zones, cancelled status and the meeting url as location', () => {
    const text = eventsCalendar(
      [
        record({
          startsAt: new Date('2027-07-01T17:00:00Z'),
          endsAt: new Date('2027-07-01T18:00:00Z'),
        }),
        record({
          id: '7f1c7c1e-2b7a-4d43-9f54-2d2f6b7f0a02',
          timeZone: 'America/New_York',
          startsAt: new Date('2027-01-15T23:00:00Z'),
          endsAt: null,
          venue: null,
          onlineMeeting: { platformId: 'zoom', url: 'https://zoom.us/j/1' },
          status: 'cancelled',
        }),
        record({ id: '7f1c7c1e-2b7a-4d43-9f54-2d2f6b7f0a03', startsAt: null }),
      ],
      { uidHost: 'h', name: 'Feed' },
    );
    const { zones, events } = parse(text);
    expect(zones.map((z) => z.getFirstPropertyValue('tzid')).sort()).toEqual([
      'America/New_York',
      'Europe/Berlin',
    ]);
    expect(events).toHaveLength(2); // an event without start is no calendar entry
    expect(events[0].startDate.hour).toBe(19); // CEST: UTC+2
    expect(events[0].startDate.toJSDate().toISOString()).toBe('2027-07-01T17:00:00.000Z');
    expect(events[1].startDate.hour).toBe(18); // EST: UTC-5
    expect(events[1].startDate.toJSDate().toISOString()).toBe('2027-01-15T23:00:00.000Z');
    expect(events[1].location).toBe('https://zoom.us/j/1');
    expect(events[1].component.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('is TENTATIVE only for an unpublished draft: published or scheduled is CONFIRMED', () => {
    const statusOf = (over: Partial<EventRecord>) =>
      parse(
        eventsCalendar([record(over)], { uidHost: 'h', name: 'n' }),
      ).events[0].component.getFirstPropertyValue('status');
    expect(statusOf({ status: 'draft', published: false })).toBe('TENTATIVE');
    // a draft published before publishing made it scheduled: subscribers must not see it tentative
    expect(statusOf({ status: 'draft', published: true })).toBe('CONFIRMED');
    expect(statusOf({ status: 'scheduled', published: false })).toBe('CONFIRMED');
    expect(statusOf({ status: 'completed', published: true })).toBe('CONFIRMED');
    expect(statusOf({ status: 'cancelled', published: true })).toBe('CANCELLED');
  });

  it('leaves the meeting link out of a public feed', () => {
    const online = record({
      venue: null,
      onlineMeeting: { platformId: 'zoom', url: 'https://zoom.us/j/42' },
    });
    const text = eventsCalendar([online], { uidHost: 'h', name: 'n', hideMeetingUrl: true });
    expect(text).not.toContain('zoom.us');
    expect(parse(text).events[0].location).toBe('Online (zoom)');
  });

  it('gives the same bytes for an unchanged event (a stable ETag)', () => {
    const opts = { uidHost: 'h', name: 'n' };
    expect(eventsCalendar([record()], opts)).toBe(eventsCalendar([record()], opts));
  });
});

describe('the process time zone', () => {
  // Jest gives a test file its own copy of process.env, so TZ cannot be changed from here: the
  // calendar is built in a child process running in Berlin time.
  it("does not move an event's time, even when its wall-clock time does not exist in the process's zone", () => {
    // 2027-03-28 02:30 does not exist in Berlin (clocks jump from 02:00 to 03:00) but does in
    // New York, which switched two weeks earlier: 06:30Z is 02:30 EDT.
    const script = `
      const { eventsCalendar } = require(${JSON.stringify(path.join(__dirname, 'event-ical.ts'))});
      const r = ${JSON.stringify({ ...record(), timeZone: 'America/New_York' })};
      Object.assign(r, {
        startsAt: new Date('2027-03-28T06:30:00Z'), endsAt: new Date('2027-03-28T08:00:00Z'),
        dateCreated: new Date(r.dateCreated), dateModified: new Date(r.dateModified),
      });
      process.stdout.write(eventsCalendar([r], { uidHost: 'crm-events', name: 'Cal' }));`;
    const text = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, TZ: 'Europe/Berlin', SWC_NODE_PROJECT: 'tsconfig.json' },
      encoding: 'utf8',
    });
    expect(text).toContain('DTSTART;TZID=America/New_York:20270328T023000');
    expect(text).toContain('DTEND;TZID=America/New_York:20270328T040000');
    const [e] = parse(text).events;
    expect(e.startDate.toJSDate().toISOString()).toBe('2027-03-28T06:30:00.000Z');
  });
});
