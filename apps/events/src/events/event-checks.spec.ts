import type { EventFieldsInput } from './dto/event.input';
import { EventChecks } from './event-checks.service';

// The payment terms' cross-field rules; E7 also runs them on bodies that failed their shape
// checks, so values of the wrong type must give no second problem.

const checks = new EventChecks(null as never, null as never);
const rules = (input: Record<string, unknown>) =>
  checks.paymentTermProblems(input as EventFieldsInput).map((p) => [p.field, p.rule, p.args]);

describe('paymentTermProblems', () => {
  it('a reminder needs a deadline and comes before it', () => {
    expect(rules({})).toEqual([]);
    expect(rules({ paymentDeadlineHours: 72 })).toEqual([]);
    expect(rules({ paymentDeadlineHours: 72, paymentReminderHours: 71 })).toEqual([]);
    expect(rules({ paymentReminderHours: 1 })).toEqual([
      ['paymentReminderHours', 'needsDeadline', {}],
    ]);
    expect(rules({ paymentDeadlineHours: null, paymentReminderHours: 1 })).toEqual([
      ['paymentReminderHours', 'needsDeadline', {}],
    ]);
    expect(rules({ paymentDeadlineHours: 72, paymentReminderHours: 72 })).toEqual([
      ['paymentReminderHours', 'lessThanDeadline', { deadline: 72 }],
    ]);
  });

  it('leaves values of the wrong shape to their own problems', () => {
    expect(rules({ paymentReminderHours: '5' })).toEqual([]);
    expect(rules({ paymentReminderHours: 1.5, paymentDeadlineHours: 1 })).toEqual([]);
    expect(rules({ paymentReminderHours: 5, paymentDeadlineHours: 'x' })).toEqual([]);
    expect(rules({ paymentReminderHours: 5, paymentDeadlineHours: 0 })).toEqual([]);
  });
});
