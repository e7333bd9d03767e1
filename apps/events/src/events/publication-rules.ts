import type { FieldProblem } from '@crm/errors';
import { problem } from './event-problem';

/** The fields of an event the publication rules read. */
export interface PublishableFields {
  startsAt: Date | null;
  endsAt: Date | null;
  venue: unknown;
  onlineMeeting: unknown;
}

/**
 * What a published event must always have (E11 to publish, E4 to stay published): start, end,
 * and a venue or an online meeting. A start in the past (an event running, checked only when
 * publishing) and a cancellation (which calendars must show) do not unpublish it.
 */
export function publishedEventProblems(r: PublishableFields): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!r.startsAt) problems.push(problem('startsAt', 'requiredToPublish'));
  if (!r.endsAt) problems.push(problem('endsAt', 'requiredToPublish'));
  if (!r.venue && !r.onlineMeeting) problems.push(problem('venue', 'venueOrOnlineMeeting'));
  return problems;
}
