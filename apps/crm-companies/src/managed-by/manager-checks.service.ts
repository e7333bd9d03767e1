import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, FieldProblem, MessageArgs } from '@crm/errors';
import { MessageBus, PeopleExistReply, PeopleExistRequest, Subjects } from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';

/** What a relation is about: compared in lower case (UUIDs of any case name the same row). */
export interface ManagerKey {
  personId: string;
  managerRoleId: string;
}

export const pairKey = (k: ManagerKey) =>
  `${k.personId.toLowerCase()}|${k.managerRoleId.toLowerCase()}`;

/** A person and/or a role of one item to confirm with crm-people, with the fields to blame. */
export interface PersonRoleRef {
  personId?: string;
  personField: string;
  managerRoleId?: string;
  roleField: string;
}

/** Requests to crm-people in flight at once while confirming one batch. */
const PARALLEL_ASKS = 8;

export interface Period {
  since: Date | null;
  until: Date | null;
}

/** The rules of managed-by relations that are not a field's format, shared by M2-M7. */
@Injectable()
export class ManagerChecks {
  constructor(
    private readonly bus: MessageBus,
    private readonly i18n: I18nService,
  ) {}

  /** A broken rule of this domain; its words are in managers.json (translated at the edge). */
  problem(field: string, rule: string, args: MessageArgs = {}): FieldProblem {
    return { field, rule, args, messageKey: `managers.problems.${rule}` };
  }

  private resource(ctx: RequestContext, name: 'person' | 'manager'): string {
    return this.i18n.t(`managers.resource.${name}`, { lang: ctx.language }) as string;
  }

  /** until must not be before since (both set). */
  periodProblems(p: Period, prefix: string): FieldProblem[] {
    if (!p.since || !p.until || p.until >= p.since) return [];
    return [
      this.problem(`${prefix}until`, 'notBefore', {
        other: `${prefix}since`,
        value: p.since.toISOString(),
      }),
    ];
  }

  /** 404 naming every unknown relation id by its field (`ids[2]`). */
  managersNotFound(ctx: RequestContext, missing: { field: string; id: string }[]): AppException {
    return new AppException(
      ErrorCode.NOT_FOUND,
      'errors.notFound.resource',
      { resource: this.resource(ctx, 'manager'), id: missing.map((m) => m.id).join(', ') },
      missing.map((m) => this.problem(m.field, 'managerNotFound', { id: m.id })),
    );
  }

  /** 409: the problems name each item that repeats a (person, role) of the company. */
  conflict(problems: FieldProblem[]): AppException {
    return new AppException(
      ErrorCode.CONFLICT,
      'managers.conflict.exists',
      problems[0]?.args ?? {},
      problems,
    );
  }

  /** Two writers raced past the duplicate check: the unique index decides, the loser gets 409. */
  raceToConflict(err: unknown): never {
    if ((err as { code?: string })?.code === 'P2002') {
      throw new AppException(ErrorCode.CONFLICT, 'managers.conflict.concurrent');
    }
    throw err;
  }

  /**
   * Asks crm-people whether the people are the tenant's and the roles are entries of its
   * manager-roles list, before anything is written. One request per distinct role (the
   * contract carries one role; the people travel with the first), at most PARALLEL_ASKS at a
   * time. Unknown role -> 400 on
   * managerRoleId, unknown person -> 404 naming each item, no answer in time -> 503 naming
   * crm-people (MessageBus). Nothing to confirm -> no request at all.
   */
  async confirm(ctx: RequestContext, refs: PersonRoleRef[]): Promise<void> {
    const lower = (v: string) => v.toLowerCase();
    const people = [...new Set(refs.flatMap((r) => (r.personId ? [lower(r.personId)] : [])))];
    const roles = [
      ...new Set(refs.flatMap((r) => (r.managerRoleId ? [lower(r.managerRoleId)] : []))),
    ];
    if (!people.length && !roles.length) return;
    const asks: PeopleExistRequest[] = roles.length
      ? roles.map((managerRoleId, i) => ({
          tenantId: ctx.tenantId,
          personIds: i === 0 ? people : [],
          managerRoleId,
        }))
      : [{ tenantId: ctx.tenantId, personIds: people }];
    // a batch may name many roles: a few requests at a time, not a burst of a thousand
    const replies: PeopleExistReply[] = [];
    for (let i = 0; i < asks.length; i += PARALLEL_ASKS) {
      replies.push(
        ...(await Promise.all(
          asks
            .slice(i, i + PARALLEL_ASKS)
            .map((ask) => this.bus.request<PeopleExistReply>(Subjects.crmPeople.peopleExist, ask)),
        )),
      );
    }
    if (replies.some((r) => !Array.isArray(r?.missingPersonIds))) {
      // an answer this service cannot read is no confirmation: refuse as if none came
      throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
        service: 'crm-people',
      });
    }

    const unknownRoles = new Set(roles.filter((_, i) => replies[i].managerRoleExists !== true));
    const roleProblems = refs
      .filter((r) => r.managerRoleId && unknownRoles.has(lower(r.managerRoleId)))
      .map((r) => this.problem(r.roleField, 'unknownManagerRole', { id: r.managerRoleId! }));
    if (roleProblems.length) throw AppException.validation(roleProblems);

    const missing = new Set(replies[0].missingPersonIds.map(lower));
    const unknown = refs.filter((r) => r.personId && missing.has(lower(r.personId)));
    if (unknown.length) {
      throw new AppException(
        ErrorCode.NOT_FOUND,
        'errors.notFound.resource',
        {
          resource: this.resource(ctx, 'person'),
          id: [...new Set(unknown.map((r) => r.personId!))].join(', '),
        },
        unknown.map((r) => this.problem(r.personField, 'personNotFound', { id: r.personId! })),
      );
    }
  }
}
