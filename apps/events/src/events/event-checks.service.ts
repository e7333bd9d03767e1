import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, FieldProblem, isUuid } from '@crm/errors';
import { problem } from './event-problem';
import type { RequestContext } from '@crm/request-context';
import type { EventFieldsInput } from './dto/event.input';
import { EventReferences } from './event-references.service';

export { problem } from './event-problem';

/** The checks of an event body beyond its shape, and the 404s of the events domain. */
@Injectable()
export class EventChecks {
  constructor(
    private readonly references: EventReferences,
    private readonly i18n: I18nService,
  ) {}

  notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('events.resource.event', { lang: ctx.language }) as string;
    return AppException.notFound(resource, id);
  }

  /** 404 naming every id (by its field) that is not an event of the tenant. */
  notFoundMany(problems: FieldProblem[]): AppException {
    return new AppException(
      ErrorCode.NOT_FOUND,
      'events.errors.notFoundMany',
      { count: problems.length },
      problems,
    );
  }

  /** Cross-field rules: the end after the start. */
  dateProblems(input: EventFieldsInput): FieldProblem[] {
    if (!input.startsAt || !input.endsAt) return [];
    const start = Date.parse(input.startsAt);
    const end = Date.parse(input.endsAt);
    return end > start ? [] : [problem('endsAt', 'endsAfterStart')];
  }

  /**
   * Cross-field rules of the payment terms: a reminder needs a deadline and comes before it
   * (a reminder at or after the deadline would reach a booking already cancelled).
   */
  paymentTermProblems(input: EventFieldsInput): FieldProblem[] {
    const reminder = input.paymentReminderHours;
    const deadline = input.paymentDeadlineHours;
    if (typeof reminder !== 'number' || !Number.isInteger(reminder)) return [];
    if (deadline == null) return [problem('paymentReminderHours', 'needsDeadline')];
    // a deadline of the wrong shape has its own problem
    if (!Number.isInteger(deadline) || deadline < 1) return [];
    return reminder < deadline
      ? []
      : [problem('paymentReminderHours', 'lessThanDeadline', { deadline })];
  }

  /** The rules between fields of a body: dates and payment terms. */
  crossFieldProblems(input: EventFieldsInput): FieldProblem[] {
    return [...this.dateProblems(input), ...this.paymentTermProblems(input)];
  }

  /** Every problem of a body that passed the shape checks: cross-field rules and references. */
  async problems(ctx: RequestContext, input: EventFieldsInput): Promise<FieldProblem[]> {
    return [...this.crossFieldProblems(input), ...(await this.references.problems(ctx, input))];
  }

  /** Malformed ids of an id list -> problems naming each by index (`ids[2]`). */
  malformedIds(field: string, ids: readonly unknown[]): FieldProblem[] {
    return ids.flatMap((id, i) => (isUuid(id) ? [] : [problem(`${field}[${i}]`, 'isUuid')]));
  }
}
