import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { toContactPerson, toOnlineMeeting, toVenue, venueLine } from '../event.mapper';
import type { EventRecord } from '../events.repository';

/** What the iCalendar of an event shows besides the event row. */
export interface IcalOptions {
  /** Host part of the UID: `<eventId>@<host>`, stable for the life of the event. */
  uidHost: string;
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  /** The page of each event, when it has one (URL). */
  urlOf?: (r: EventRecord) => string | null;
  /**
   * Public feed (W16): the online meeting link is not written (attendees get it with their
   * booking, as W8 does); an online event's LOCATION is `Online (<platform id>)`.
   */
  hideMeetingUrl?: boolean;
}

/**
 * RFC 5545 calendar of events (E8: one, W16: a website's published ones), with a VTIMEZONE for
 * every zone used. DTSTART/DTEND are in the event's zone; DTSTAMP and LAST-MODIFIED in UTC
 * (DTSTAMP is the last modification, so an unchanged event gives byte-identical output and a
 * stable ETag). The note and the orga tags are never written; the meeting link only when asked.
 */
export function eventsCalendar(records: EventRecord[], opts: IcalOptions): string {
  const cal = ical({
    name: opts.name,
    prodId: { company: 'crm', product: 'events', language: 'EN' },
  });
  // name null: the calendar itself has no zone, so DTSTAMP and LAST-MODIFIED stay UTC (Z)
  cal.timezone({ name: null, generator: getVtimezoneComponent });
  for (const r of records) {
    if (!r.startsAt) continue; // a calendar entry needs a start
    const venue = toVenue(r.venue);
    const meeting = toOnlineMeeting(r.onlineMeeting);
    const contact = toContactPerson(r.contactPerson);
    const organizerName = [contact?.firstname, contact?.lastname].filter(Boolean).join(' ');
    const url = opts.urlOf?.(r) ?? null;
    cal.createEvent({
      id: `${r.id}@${opts.uidHost}`,
      sequence: r.sequence,
      stamp: r.dateModified,
      lastModified: r.dateModified,
      created: r.dateCreated,
      // luxon DateTimes: ical-generator writes them in the event's zone whatever the process's
      // own zone is (a plain Date would be read through the process's local time)
      start: DateTime.fromJSDate(r.startsAt, { zone: r.timeZone }),
      end: DateTime.fromJSDate(r.endsAt ?? r.startsAt, { zone: r.timeZone }),
      timezone: r.timeZone,
      summary: r.subtitle ? `${r.title} - ${r.subtitle}` : r.title,
      description: r.description ?? undefined,
      location:
        venueLine(venue) ??
        (meeting ? (opts.hideMeetingUrl ? `Online (${meeting.platformId})` : meeting.url) : null) ??
        undefined,
      url: url ?? undefined,
      organizer: contact?.email
        ? { name: organizerName || contact.email, email: contact.email }
        : undefined,
      // only an unpublished draft is tentative: what is published takes place unless cancelled
      status:
        r.status === 'cancelled'
          ? ICalEventStatus.CANCELLED
          : r.status === 'draft' && !r.published
            ? ICalEventStatus.TENTATIVE
            : ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
