import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { Touchpoint, TouchpointsDeleted } from './dto/touchpoint.dto';
import {
  PriorityInput,
  TouchpointIdsInput,
  TouchpointMoodInput,
  TouchpointPriorityInput,
  TouchpointTagsInput,
} from './dto/touchpoint.input';
import { toTouchpoint } from './touchpoint.mapper';
import { TouchpointRules } from './touchpoint.rules';
import { TouchpointsRepository } from './touchpoints.repository';
import { authorOf, TouchpointsService } from './touchpoints.service';
import type { Tx } from '../database/tx';

/** Changes to several touchpoints or to one aspect of one (T6, T8, T9, T11-T13). */
@Injectable()
export class TouchpointChangesService {
  constructor(
    private readonly repo: TouchpointsRepository,
    private readonly rules: TouchpointRules,
    private readonly touchpoints: TouchpointsService,
    private readonly settings: SettingsLookupService,
    private readonly i18n: I18nService,
  ) {}

  /** 404 naming by index every id that is not a touchpoint of the tenant. */
  private async requireAll(ctx: RequestContext, field: string, ids: string[], tx: Tx) {
    const found = await this.repo.existingIds(ctx.tenantId, ids, tx);
    const missing = this.rules.missing(ctx.language, field, ids, found);
    if (missing.length) throw this.rules.notFoundMany(missing);
  }

  private async reread(ctx: RequestContext, ids: string[], tx: Tx): Promise<Touchpoint[]> {
    const now = new Date();
    return (await this.repo.findByIds(ctx.tenantId, [...new Set(ids)], tx)).map((r) =>
      toTouchpoint(r, now),
    );
  }

  /** T6: all or nothing. */
  async deleteMany(ctx: RequestContext, input: TouchpointIdsInput): Promise<TouchpointsDeleted> {
    this.rules.requireIds(ctx.language, { ids: input.ids });
    const deleted = await this.repo.transaction(async (tx) => {
      await this.requireAll(ctx, 'ids', input.ids, tx);
      return this.repo.deleteMany(tx, ctx.tenantId, [...new Set(input.ids)]);
    });
    return { deleted };
  }

  /** 400 naming by index every tag id that is not an orga tag of the tenant. */
  private async requireTags(ctx: RequestContext, tagIds: string[], tx: Tx) {
    const found = await this.settings.entries(ctx.tenantId, 'ORGA_TAGS', tagIds, ctx.language, tx);
    const list = this.i18n.t('people.lists.orgaTags', { lang: ctx.language }) as string;
    const problems = tagIds.flatMap((id, i) =>
      found.has(id) ? [] : [{ field: `tagIds[${i}]`, rule: 'unknownEntry', args: { list } }],
    );
    if (problems.length) throw AppException.validation(problems);
  }

  /** T8 (add) and T9 (remove): answers with the touchpoints as they are now. */
  async changeTags(
    ctx: RequestContext,
    input: TouchpointTagsInput,
    action: 'add' | 'remove',
  ): Promise<Touchpoint[]> {
    this.rules.requireIds(ctx.language, {
      touchpointIds: input.touchpointIds,
      tagIds: input.tagIds,
    });
    return this.repo.transaction(async (tx) => {
      await this.requireAll(ctx, 'touchpointIds', input.touchpointIds, tx);
      await this.requireTags(ctx, input.tagIds, tx);
      const ids = [...new Set(input.touchpointIds)];
      const tagIds = [...new Set(input.tagIds)];
      if (action === 'add') await this.repo.addTags(tx, ctx.tenantId, ids, tagIds);
      else await this.repo.removeTags(tx, ctx.tenantId, ids, tagIds);
      await this.repo.touch(tx, ctx.tenantId, ids, authorOf(ctx));
      return this.reread(ctx, ids, tx);
    });
  }

  /** T11: `[{ id, priority }]`, every invalid item named by index, all or nothing. */
  async setPriorities(ctx: RequestContext, raw: unknown): Promise<Touchpoint[]> {
    const items = this.rules.validateItems(TouchpointPriorityInput, raw);
    const seen = new Set<string>();
    const problems = items.flatMap((item, i) => {
      const field = `[${i}].id`;
      if (!isUuid(item.id)) return [this.rules.problem(ctx.language, field, 'isUuid')];
      if (seen.has(item.id)) return [this.rules.problem(ctx.language, field, 'duplicate')];
      seen.add(item.id);
      return [];
    });
    if (problems.length) throw AppException.validation(problems);
    const ids = items.map((i) => i.id);
    return this.repo.transaction(async (tx) => {
      const found = await this.repo.existingIds(ctx.tenantId, ids, tx);
      const missing = ids.flatMap((id, i) =>
        found.has(id) ? [] : [this.rules.problem(ctx.language, `[${i}].id`, 'notFound')],
      );
      if (missing.length) throw this.rules.notFoundMany(missing);
      // one update per priority value (at most five), not one per item
      for (let priority = 1; priority <= 5; priority++) {
        const group = items.filter((i) => i.priority === priority).map((i) => i.id);
        if (group.length)
          await this.repo.setPriorities(tx, ctx.tenantId, group, priority, authorOf(ctx));
      }
      return this.reread(ctx, ids, tx);
    });
  }

  /** T12. */
  async setPriority(ctx: RequestContext, id: string, priority: unknown): Promise<Touchpoint> {
    // GraphQL passes a bare Int: the same rules as the REST body
    const input = this.rules.validateObject(PriorityInput, { priority });
    return this.repo.transaction(async (tx) => {
      await this.touchpoints.requireExisting(ctx, id, tx);
      await this.repo.setPriorities(tx, ctx.tenantId, [id], input.priority, authorOf(ctx));
      return toTouchpoint((await this.repo.findById(ctx.tenantId, id, tx))!);
    });
  }

  /** T13: appends to the mood history; the newest entry is the current mood. */
  async addMood(ctx: RequestContext, id: string, input: TouchpointMoodInput): Promise<Touchpoint> {
    return this.repo.transaction(async (tx) => {
      await this.touchpoints.requireExisting(ctx, id, tx);
      const by = authorOf(ctx);
      await this.repo.addMood(
        tx,
        ctx.tenantId,
        id,
        { mood: input.mood, comment: input.comment ?? null },
        by,
      );
      await this.repo.touch(tx, ctx.tenantId, [id], by);
      return toTouchpoint((await this.repo.findById(ctx.tenantId, id, tx))!);
    });
  }
}
