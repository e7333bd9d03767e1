import { Injectable } from '@nestjs/common';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { Touchpoint, TouchpointsMoved } from './dto/touchpoint.dto';
import { toTouchpoint } from './touchpoint.mapper';
import { Scope, TouchpointRules } from './touchpoint.rules';
import { TouchpointsRepository } from './touchpoints.repository';
import { authorOf, RESOURCE } from './touchpoints.service';
import type { Tx } from '../database/tx';

export interface MoveTouchpoints {
  fromPersonId: string;
  toPersonId: string;
  touchpointIds?: string[] | null;
}

/** Who is involved in touchpoints: remove one person (T10), move participation (T14, NATS). */
@Injectable()
export class TouchpointPeopleService {
  constructor(
    private readonly repo: TouchpointsRepository,
    private readonly rules: TouchpointRules,
  ) {}

  /** T10: a touchpoint keeps at least one person, so the last one cannot go (409). */
  async removePerson(ctx: RequestContext, id: string, personId: string): Promise<Touchpoint> {
    if (!isUuid(id)) throw AppException.notFound(RESOURCE, id);
    const notInvolved = () =>
      new AppException(ErrorCode.NOT_FOUND, 'touchpoints.errors.notInvolved', { id, personId });
    if (!isUuid(personId)) throw notInvolved();
    const record = await this.repo.transaction(async (tx) => {
      // The row lock serializes removals: two at once cannot both see "another one is left".
      if (!(await this.repo.lock(tx, ctx.tenantId, id))) throw AppException.notFound(RESOURCE, id);
      const people = await this.repo.participants(tx, ctx.tenantId, id);
      if (!people.includes(personId)) throw notInvolved();
      if (people.length === 1)
        throw AppException.conflictOn('personId', 'lastPerson', 'touchpoints.errors.lastPerson', {
          id,
          personId,
        });
      await this.repo.removePerson(tx, ctx.tenantId, id, personId);
      await this.repo.touch(tx, ctx.tenantId, [id], authorOf(ctx));
      return (await this.repo.findById(ctx.tenantId, id, tx))!;
    });
    return toTouchpoint(record);
  }

  /**
   * T14 and the NATS command crm-people.touchpoints.move: `fromPersonId`'s touchpoints (or the
   * given ones of them) involve `toPersonId` instead; where both were involved, only the source's
   * participation goes. One transaction; pass `db` to join a caller's (e.g. a merge).
   */
  async move(scope: Scope, input: MoveTouchpoints, db?: Tx): Promise<TouchpointsMoved> {
    const lang = scope.language;
    if (input.fromPersonId === input.toPersonId)
      throw AppException.validation([this.rules.problem(lang, 'toPersonId', 'samePerson')]);
    const ids = input.touchpointIds ?? null;
    if (ids) this.rules.requireIds(lang, { touchpointIds: ids });

    const run = async (tx: Tx) => {
      const people = await this.repo.existingPersonIds(
        scope.tenantId,
        [input.fromPersonId, input.toPersonId],
        tx,
      );
      for (const personId of [input.fromPersonId, input.toPersonId]) {
        if (!people.has(personId)) throw AppException.notFound('Person', personId);
      }
      if (ids?.length) {
        const involved = await this.repo.existingIds(scope.tenantId, ids, tx, input.fromPersonId);
        const missing = this.rules.missing(lang, 'touchpointIds', ids, involved, 'notInvolved', {
          personId: input.fromPersonId,
        });
        if (missing.length) throw this.rules.notFoundMany(missing);
      }
      const moved = await this.repo.move(
        tx,
        scope.tenantId,
        input.fromPersonId,
        input.toPersonId,
        ids,
      );
      return { moved };
    };
    return db ? run(db) : this.repo.transaction(run);
  }
}
