import { AppException, ErrorCode, FieldProblem } from '@crm/errors';

/** A problem of a booking's field, with its message under `bookings.problems`. */
export const problem = (field: string, rule: string, args?: Record<string, string | number>) => ({
  field,
  rule,
  args,
  messageKey: `bookings.problems.${rule}`,
});

/**
 * A conflict that names the field and rule, like a 400 does: every 409 of this service carries
 * `errors` with at least one entry (the type asks for it), so a client can tell them apart.
 */
export const conflict = (
  messageKey: string,
  args: Record<string, string | number>,
  problems: [FieldProblem, ...FieldProblem[]],
) => new AppException(ErrorCode.CONFLICT, `bookings.errors.${messageKey}`, args, problems);
