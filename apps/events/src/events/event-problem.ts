import type { FieldProblem, MessageArgs } from '@crm/errors';

/** A domain rule's problem; its message is `events.validation.<rule>` (en, de). */
export const problem = (field: string, rule: string, args: MessageArgs = {}): FieldProblem => ({
  field,
  rule,
  args,
  messageKey: `events.validation.${rule}`,
});
