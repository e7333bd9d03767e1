import type { Touchpoint, TouchpointCalculated } from './dto/touchpoint.dto';
import type { TouchpointRecord } from './touchpoints.repository';

const MINUTE_MS = 60_000;

/**
 * The derived fields of a touchpoint at `now`. Without an end a touchpoint is a moment: past once
 * it has started. Between start and end it is neither past nor upcoming (it is under way).
 */
export function calculate(
  t: { start: Date; end: Date | null; moods: readonly { mood: string }[]; participants: number },
  now: Date = new Date(),
): TouchpointCalculated {
  return {
    durationMinutes: t.end ? Math.floor((t.end.getTime() - t.start.getTime()) / MINUTE_MS) : null,
    isPast: (t.end ?? t.start).getTime() < now.getTime(),
    isUpcoming: t.start.getTime() > now.getTime(),
    currentMood: t.moods.length ? t.moods[t.moods.length - 1].mood : null,
    participantCount: t.participants,
  };
}

/** Database record -> the Touchpoint resource of the API. */
export function toTouchpoint(r: TouchpointRecord, now: Date = new Date()): Touchpoint {
  return {
    id: r.id,
    type: r.type,
    subject: r.subject,
    description: r.description,
    start: r.start.toISOString(),
    end: r.end ? r.end.toISOString() : null,
    personIds: r.people.map((p) => p.personId),
    companyId: r.companyId,
    priority: r.priority,
    moods: r.moods.map((m) => ({
      id: m.id,
      mood: m.mood,
      comment: m.comment,
      createdBy: m.createdBy,
      dateCreated: m.dateCreated.toISOString(),
    })),
    tags: r.tags.map((t) => ({ id: t.entryId, text: t.entry.text })),
    ...calculate(
      { start: r.start, end: r.end, moods: r.moods, participants: r.people.length },
      now,
    ),
    createdBy: r.createdBy,
    modifiedBy: r.modifiedBy,
    createdByUserId: r.createdByUserId,
    modifiedByUserId: r.modifiedByUserId,
    dateCreated: r.dateCreated.toISOString(),
    dateModified: r.dateModified.toISOString(),
  };
}
