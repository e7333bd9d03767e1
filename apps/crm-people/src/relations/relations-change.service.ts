import { Injectable } from '@nestjs/common';
import { AppException, checkItems, ErrorCode, FieldProblem, orThrow, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { DeleteIdsInput } from '../settings/dto/delete-ids.input';
import { relationType } from '../settings/relation-types';
import type { RelationView } from './dto/relation.dto';
import { UpdateRelationInput, UpdateRelationItemInput } from './dto/relation.input';
import { RelationRecord } from './relations.repository';
import { RelationsService } from './relations.service';
import type { Tx } from '../database/tx';

type Item = { id: string; type: UpdateRelationInput['type'] };

/** Updates and removals of relations (R3, R4, R6, R7): the inverse always follows. */
@Injectable()
export class RelationsChangeService {
  constructor(private readonly core: RelationsService) {}

  private get repo() {
    return this.core.repo;
  }

  /** The person's own relations by id; any unknown (or another person's) is 404. */
  private async requireOwn(
    tx: Tx,
    ctx: RequestContext,
    personId: string,
    ids: string[],
    path: (i: number) => string,
  ): Promise<Map<string, RelationRecord>> {
    await this.core.requirePerson(tx, ctx, personId);
    const rows = await this.repo.findOwn(
      tx,
      ctx.tenantId,
      personId,
      ids.filter((id) => isUuid(id)),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.map((id, i) => ({ id, i })).filter(({ id }) => !byId.has(id));
    if (missing.length) {
      throw new AppException(
        ErrorCode.NOT_FOUND,
        'errors.notFound.resource',
        { resource: 'Relation', id: missing.map((m) => m.id).join(', ') },
        missing.map(({ id, i }) => this.core.problem(ctx, path(i), 'relationNotFound', { id })),
      );
    }
    return byId;
  }

  /** R3 */
  async update(
    ctx: RequestContext,
    personId: string,
    relationId: string,
    input: UpdateRelationInput,
  ): Promise<RelationView> {
    return (await this.apply(ctx, personId, [{ id: relationId, type: input.type }], () => ''))[0];
  }

  /** R6: `[{ id, type: { typeIdentifier?, isFavorite? } }]`, all or nothing. */
  updateMany(ctx: RequestContext, personId: string, raw: unknown): Promise<RelationView[]> {
    const items = orThrow(checkItems(UpdateRelationItemInput, raw));
    const seen = new Set<string>();
    const twice = items.flatMap((it, i) => {
      const dup = seen.has(it.id);
      seen.add(it.id);
      return dup ? [this.core.problem(ctx, `[${i}].id`, 'duplicateItem')] : [];
    });
    if (twice.length) throw AppException.validation(twice);
    return this.apply(ctx, personId, items, (i) => `[${i}].`);
  }

  private apply(
    ctx: RequestContext,
    personId: string,
    items: Item[],
    path: (i: number) => string,
  ): Promise<RelationView[]> {
    return this.repo
      .transaction(async (tx) => {
        const byId = await this.requireOwn(
          tx,
          ctx,
          personId,
          items.map((it) => it.id),
          (i) => `${path(i)}id`,
        );
        const changes = items
          .map((it, i) => ({ it, i, row: byId.get(it.id)! }))
          .filter(
            ({ it, row }) =>
              it.type.typeIdentifier && it.type.typeIdentifier !== row.typeIdentifier,
          );

        // the new type must not repeat another relation to the same person
        const existing = await this.repo.findTo(
          tx,
          ctx.tenantId,
          personId,
          changes.map((c) => c.row.toPersonId),
        );
        const taken = new Set(existing.map((e) => `${e.toPersonId}|${e.typeIdentifier}`));
        const conflicts: FieldProblem[] = [];
        for (const { it, i, row } of changes) {
          const key = `${row.toPersonId}|${it.type.typeIdentifier}`;
          if (taken.has(key))
            conflicts.push(
              this.core.problem(ctx, `${path(i)}type.typeIdentifier`, 'duplicate', {
                type: it.type.typeIdentifier!,
              }),
            );
          taken.add(key);
        }
        if (conflicts.length) {
          throw new AppException(
            ErrorCode.CONFLICT,
            'relations.conflict.exists',
            { type: String(conflicts[0].args?.type) },
            conflicts,
          );
        }

        const inverses = await this.repo.findInverses(
          tx,
          ctx.tenantId,
          changes.map(({ row }) => ({
            ...row,
            inverseType: relationType(row.typeIdentifier)?.inverse ?? row.typeIdentifier,
          })),
        );
        for (const it of items) {
          const data = {
            ...(it.type.typeIdentifier ? { typeIdentifier: it.type.typeIdentifier } : {}),
            ...(it.type.isFavorite !== undefined ? { isFavorite: it.type.isFavorite } : {}),
          };
          if (Object.keys(data).length) await this.repo.update(tx, ctx.tenantId, it.id, data);
        }
        for (const { it, row } of changes) {
          const oldInverse = relationType(row.typeIdentifier)?.inverse ?? row.typeIdentifier;
          const inverse = inverses.find((v) =>
            row.inverseId
              ? v.id === row.inverseId
              : v.fromPersonId === row.toPersonId &&
                v.toPersonId === row.fromPersonId &&
                v.typeIdentifier === oldInverse,
          );
          const newInverse = relationType(it.type.typeIdentifier!)!.inverse;
          if (inverse) {
            await this.repo.update(tx, ctx.tenantId, inverse.id, {
              typeIdentifier: newInverse,
              inverseId: row.id,
            });
          } else {
            // the other side went missing (data written without it): write it again
            await this.repo.createInverse(tx, ctx.tenantId, row, newInverse);
          }
        }
        const rows = await this.repo.findOwn(
          tx,
          ctx.tenantId,
          personId,
          items.map((it) => it.id),
        );
        const saved = new Map(rows.map((r) => [r.id, r]));
        return this.core.views(
          ctx,
          items.map((it) => saved.get(it.id)!),
        );
      })
      .catch((err: unknown) => this.core.raceToConflict(err));
  }

  /** R4 */
  async remove(ctx: RequestContext, personId: string, relationId: string): Promise<RelationView> {
    return (await this.removeAll(ctx, personId, [relationId], () => 'id'))[0];
  }

  /** R7 */
  removeMany(ctx: RequestContext, personId: string, body: DeleteIdsInput): Promise<RelationView[]> {
    return this.removeAll(ctx, personId, [...new Set(body.ids)], (i) => `ids[${i}]`);
  }

  /** Removes relations and their inverses: the other person no longer shows the relation. */
  private removeAll(
    ctx: RequestContext,
    personId: string,
    ids: string[],
    path: (i: number) => string,
  ): Promise<RelationView[]> {
    return this.repo.transaction(async (tx) => {
      const byId = await this.requireOwn(tx, ctx, personId, ids, path);
      const rows = ids.map((id) => byId.get(id)!);
      const inverses = await this.repo.findInverses(
        tx,
        ctx.tenantId,
        rows.map((r) => ({
          ...r,
          inverseType: relationType(r.typeIdentifier)?.inverse ?? r.typeIdentifier,
        })),
      );
      await this.repo.deleteMany(tx, ctx.tenantId, [...ids, ...inverses.map((v) => v.id)]);
      return this.core.views(ctx, rows);
    });
  }
}
