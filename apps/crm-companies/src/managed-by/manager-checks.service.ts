import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, FieldProblem, MessageArgs } from '@crm/errors';
import { MessageBus, PeopleExistReply, PeopleExistRequest, Subjects } from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import { TombstonesRepository } from './tombstones.repository';
import type { Tx } from '../database/tx';

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
    private readonly tombstones: TombstonesRepository,
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
      throw AppException.conflictOn('items', 'concurrent', 'managers.conflict.concurrent');
    }
    throw err;
  }

  /**
   * Asks crm-people, in one request, whether the people are the tenant's and the roles are
   * entries of its manager-roles list, before anything is written. Unknown role -> 400 on
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
    const ask: PeopleExistRequest = {
      tenantId: ctx.tenantId,
      personIds: people,
      managerRoleIds: roles,
    };
    const reply = await this.bus.request<PeopleExistReply>(Subjects.crmPeople.peopleExist, ask);
    if (!Array.isArray(reply?.missingPersonIds) || !Array.isArray(reply?.unknownManagerRoleIds)) {
      // an answer this service cannot read (e.g. a crm-people from before managerRoleIds) is no
      // confirmation: refuse as if none came
      throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
        service: 'crm-people',
      });
    }

    const unknownRoles = new Set(reply.unknownManagerRoleIds.map(lower));
    const roleProblems = refs
      .filter((r) => r.managerRoleId && unknownRoles.has(lower(r.managerRoleId)))
      .map((r) => this.problem(r.roleField, 'unknownManagerRole', { id: r.managerRoleId! }));
    if (roleProblems.length) throw AppException.validation(roleProblems);

    this.refuseUnknownPeople(ctx, refs, new Set(reply.missingPersonIds.map(lower)));
  }

  /** 404 naming each item whose person is in `missing` (lower case); nothing when none is. */
  private refuseUnknownPeople(ctx: RequestContext, refs: PersonRoleRef[], missing: Set<string>) {
    const unknown = refs.filter((r) => r.personId && missing.has(r.personId.toLowerCase()));
    if (!unknown.length) return;
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

  /**
   * The first step of a transaction that writes relations to the people of `refs` (confirmed
   * before it by `confirm`) and writes back the `kept` people of relations it changes otherwise:
   * holds them all (in one sorted step) against the consumers of their deletion or merge until
   * the commit. A person of `refs` whose consumer has run since is refused with confirm's 404,
   * a kept one with 409 (the relation was removed or moved meanwhile). Before any row lock: a
   * consumer holding a person waits for the relations it removes or moves.
   */
  async holdPeople(
    tx: Tx,
    ctx: RequestContext,
    refs: PersonRoleRef[],
    kept: string[] = [],
  ): Promise<void> {
    const people = [...refs.flatMap((r) => (r.personId ? [r.personId] : [])), ...kept];
    if (!people.length) return;
    const gone = await this.tombstones.deletedPeople(tx, ctx.tenantId, people);
    this.refuseUnknownPeople(ctx, refs, gone);
    if (kept.some((id) => gone.has(id.toLowerCase()))) {
      throw AppException.conflictOn('items', 'concurrent', 'managers.conflict.concurrent');
    }
  }
}
