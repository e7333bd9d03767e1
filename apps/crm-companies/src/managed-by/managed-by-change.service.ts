import { Injectable } from '@nestjs/common';
import { AppException, checkItems, FieldProblem, orThrow, throwIfProblems } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { CompanyManager } from './dto/company-manager.output';
import {
  DeleteCompanyManagersInput,
  UpdateCompanyManagerInput,
  UpdateCompanyManagerItemInput,
} from './dto/company-manager.input';
import { toCompanyManager } from './managed-by.mapper';
import { ManagerChange, ManagerRecord } from './managed-by.repository';
import { ManagedByService, toDate } from './managed-by.service';
import { pairKey } from './manager-checks.service';

type Item = UpdateCompanyManagerInput & { id: string };

/** The row after the update: absent fields stay, null clears since or until. */
function merged(row: ManagerRecord, it: Item): ManagerChange {
  return {
    id: row.id,
    personId: it.personId?.toLowerCase() ?? row.personId,
    managerRoleId: it.managerRoleId?.toLowerCase() ?? row.managerRoleId,
    since: it.since === undefined ? row.since : toDate(it.since),
    until: it.until === undefined ? row.until : toDate(it.until),
  };
}

const sameTime = (a: Date | null, b: Date | null) =>
  (a?.getTime() ?? null) === (b?.getTime() ?? null);

function differs(row: ManagerRecord, c: ManagerChange): boolean {
  return (
    row.personId !== c.personId ||
    row.managerRoleId !== c.managerRoleId ||
    !sameTime(row.since, c.since) ||
    !sameTime(row.until, c.until)
  );
}

/** Updates (M4, M5) and deletes (M6, M7) of managed-by relations. */
@Injectable()
export class ManagedByChangeService {
  constructor(private readonly core: ManagedByService) {}

  private get repo() {
    return this.core.repo;
  }

  private get checks() {
    return this.core.checks;
  }

  /** M5 */
  async update(
    ctx: RequestContext,
    companyId: string,
    relationId: string,
    input: UpdateCompanyManagerInput,
  ): Promise<CompanyManager> {
    const items = [{ ...input, id: relationId }];
    return (
      await this.apply(
        ctx,
        companyId,
        items,
        () => '',
        () => 'relationId',
      )
    )[0];
  }

  /** M4: `[{ id, ...M5 body }]` (at most 1000), all or nothing; problems name the item. */
  updateMany(ctx: RequestContext, companyId: string, raw: unknown): Promise<CompanyManager[]> {
    const items = orThrow(checkItems(UpdateCompanyManagerItemInput, raw));
    const seen = new Set<string>();
    throwIfProblems(
      items.flatMap((it, i) => {
        const id = it.id.toLowerCase();
        const twice = seen.has(id);
        seen.add(id);
        return twice ? [this.checks.problem(`[${i}].id`, 'duplicateItem')] : [];
      }),
    );
    return this.apply(
      ctx,
      companyId,
      items,
      (i) => `[${i}].`,
      (i) => `[${i}].id`,
    );
  }

  private async apply(
    ctx: RequestContext,
    companyId: string,
    items: Item[],
    path: (i: number) => string,
    idField: (i: number) => string,
  ): Promise<CompanyManager[]> {
    await this.core.lookup.require(ctx, companyId);
    const ids = items.map((it) => it.id);
    const before = await this.core.requireOwn(this.repo.client, ctx, companyId, ids, idField);
    this.periodCheck(items, before, path);
    // only a new person or role is asked about: the old ones were confirmed when written
    const refs = items.map((it, i) => {
      const row = before.get(it.id.toLowerCase())!;
      const person = it.personId?.toLowerCase();
      const role = it.managerRoleId?.toLowerCase();
      return {
        personId: person && person !== row.personId ? person : undefined,
        personField: `${path(i)}personId`,
        managerRoleId: role && role !== row.managerRoleId ? role : undefined,
        roleField: `${path(i)}managerRoleId`,
      };
    });
    await this.checks.confirm(ctx, refs);
    // the update writes every relation's person back, also where it stays the same
    const kept = items.flatMap((it, i) =>
      refs[i].personId ? [] : [before.get(it.id.toLowerCase())!.personId],
    );

    return this.repo
      .transaction(async (tx) => {
        // a new person deleted or merged away since confirmed: 404 as if crm-people had said so;
        // a kept one: the relation was removed or moved meanwhile (409)
        await this.checks.holdPeople(tx, ctx, refs, kept);
        await this.core.lookup.lock(tx, ctx, companyId);
        // read again under the lock: another request may have changed or removed them
        const rows = await this.core.requireOwn(tx, ctx, companyId, ids, idField);
        const moved = items.some(
          (it, i) =>
            !refs[i].personId &&
            rows.get(it.id.toLowerCase())!.personId !== before.get(it.id.toLowerCase())!.personId,
        );
        // another write changed a kept person since it was read: that one is not held here
        if (moved)
          throw AppException.conflictOn('items', 'concurrent', 'managers.conflict.concurrent');
        this.periodCheck(items, rows, path);
        const changes = items.map((it) => merged(rows.get(it.id.toLowerCase())!, it));

        const finalKeys = new Map(changes.map((c) => [c.id, pairKey(c)]));
        const others = await this.repo.pairsOf(tx, ctx.tenantId, companyId.toLowerCase(), [
          ...new Set(changes.map((c) => c.personId)),
        ]);
        const taken = new Set(others.filter((o) => !finalKeys.has(o.id)).map(pairKey));
        const conflicts: FieldProblem[] = [];
        changes.forEach((c, i) => {
          const key = pairKey(c);
          if (taken.has(key)) {
            conflicts.push(
              this.checks.problem(`${path(i)}managerRoleId`, 'duplicate', {
                personId: c.personId,
                managerRoleId: c.managerRoleId,
              }),
            );
          }
          taken.add(key);
        });
        if (conflicts.length) throw this.checks.conflict(conflicts);

        const changed = changes.filter((c) => differs(rows.get(c.id)!, c));
        await this.repo.update(
          tx,
          ctx.tenantId,
          companyId.toLowerCase(),
          ctx.integrationName,
          changed,
        );
        const saved = await this.repo.findOwn(
          tx,
          ctx.tenantId,
          companyId.toLowerCase(),
          changes.map((c) => c.id),
        );
        const byId = new Map(saved.map((r) => [r.id, r]));
        return changes.map((c) => toCompanyManager(byId.get(c.id)!));
      })
      .catch((err: unknown) => this.checks.raceToConflict(err));
  }

  private periodCheck(
    items: Item[],
    rows: Map<string, ManagerRecord>,
    path: (i: number) => string,
  ) {
    throwIfProblems(
      items.flatMap((it, i) =>
        this.checks.periodProblems(merged(rows.get(it.id.toLowerCase())!, it), path(i)),
      ),
    );
  }

  /** M7 */
  async remove(
    ctx: RequestContext,
    companyId: string,
    relationId: string,
  ): Promise<CompanyManager> {
    return (await this.removeAll(ctx, companyId, [relationId], () => 'relationId'))[0];
  }

  /** M6: all or nothing; an unknown or foreign id -> 404 naming it (`ids[2]`), nothing deleted. */
  removeMany(
    ctx: RequestContext,
    companyId: string,
    body: DeleteCompanyManagersInput,
  ): Promise<CompanyManager[]> {
    return this.removeAll(ctx, companyId, body.ids, (i) => `ids[${i}]`);
  }

  /** Answers the removed relations (each once, in the order asked). */
  private removeAll(
    ctx: RequestContext,
    companyId: string,
    ids: string[],
    field: (i: number) => string,
  ): Promise<CompanyManager[]> {
    return this.repo.transaction(async (tx) => {
      await this.core.lookup.lock(tx, ctx, companyId);
      const byId = await this.core.requireOwn(tx, ctx, companyId, ids, field);
      const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
      const deleted = await this.repo.delete(tx, ctx.tenantId, companyId.toLowerCase(), unique);
      // a people-deleted event applied meanwhile (it does not lock companies): roll back
      if (deleted !== unique.length) {
        throw AppException.conflictOn('items', 'concurrent', 'managers.conflict.concurrent');
      }
      return unique.map((id) => toCompanyManager(byId.get(id)!));
    });
  }
}
