import type {
  Event,
  EventContactPerson,
  EventContributor,
  EventOnlineMeeting,
  EventTag,
  EventVenue,
} from './dto/event.output';
import type { EventRecord } from './events.repository';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function toVenue(v: unknown): EventVenue | null {
  const o = obj(v);
  if (!o) return null;
  return {
    name: str(o.name),
    street: str(o.street),
    zip: str(o.zip),
    city: str(o.city),
    country: str(o.country),
  };
}

export function toOnlineMeeting(v: unknown): EventOnlineMeeting | null {
  const o = obj(v);
  return o ? { platformId: str(o.platformId) ?? '', url: str(o.url) ?? '' } : null;
}

export function toContactPerson(v: unknown): EventContactPerson | null {
  const o = obj(v);
  if (!o) return null;
  return {
    templateId: str(o.templateId),
    salutation: str(o.salutation),
    firstname: str(o.firstname),
    lastname: str(o.lastname),
    position: str(o.position),
    email: str(o.email),
    phone: str(o.phone),
  };
}

export function toContributors(v: unknown): EventContributor[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((c) => {
    const o = obj(c);
    return o
      ? [{ name: str(o.name) ?? '', roleId: str(o.roleId) ?? '', personId: str(o.personId) }]
      : [];
  });
}

const byText = (a: EventTag, b: EventTag) =>
  a.text.localeCompare(b.text) || a.id.localeCompare(b.id);

function tagsOf(r: EventRecord, list: 'ORGA_TAGS' | 'PORTAL_TAGS'): EventTag[] {
  return r.tags
    .filter((t) => t.entry.list === list)
    .map((t) => ({ id: t.entry.id, text: t.entry.text, color: t.entry.color }))
    .sort(byText);
}

/** A database record -> the Event resource (REST and GraphQL alike). */
export function toEvent(r: EventRecord): Event {
  return {
    id: r.id,
    title: r.title,
    subtitle: r.subtitle,
    description: r.description,
    startsAt: iso(r.startsAt),
    endsAt: iso(r.endsAt),
    timeZone: r.timeZone,
    venue: toVenue(r.venue),
    onlineMeeting: toOnlineMeeting(r.onlineMeeting),
    capacity: r.capacity,
    categoryId: r.categoryId,
    contributors: toContributors(r.contributors),
    contactPerson: toContactPerson(r.contactPerson),
    orgaTags: tagsOf(r, 'ORGA_TAGS'),
    portalTags: tagsOf(r, 'PORTAL_TAGS'),
    bookingFormFieldSetId: r.bookingFormFieldSetId,
    cancellationConditionId: r.cancellationConditionId,
    taxRateId: r.taxRateId,
    holdMinutes: r.holdMinutes,
    waitingListOfferMinutes: r.waitingListOfferMinutes,
    paymentDeadlineHours: r.paymentDeadlineHours,
    paymentReminderHours: r.paymentReminderHours,
    maxTicketsPerBuyer: r.maxTicketsPerBuyer,
    note: r.note,
    status: r.status,
    published: r.published,
    publishedAt: iso(r.publishedAt),
    websiteIds: r.websites.map((w) => w.websiteId).sort(),
    sequence: r.sequence,
    createdBy: r.createdBy,
    modifiedBy: r.modifiedBy,
    dateCreated: r.dateCreated.toISOString(),
    dateModified: r.dateModified.toISOString(),
  };
}

/** "Kongresshalle, Hauptstr. 1, 10115 Berlin, DE": the venue on one line (iCalendar LOCATION). */
export function venueLine(v: EventVenue | null): string | null {
  if (!v) return null;
  const place = [v.zip, v.city].filter(Boolean).join(' ');
  const line = [v.name, v.street, place, v.country].filter(Boolean).join(', ');
  return line || null;
}
