import { Injectable } from '@nestjs/common';
import { actorOf } from '@crm/persistence';
import { AppException, FieldProblem, isUuid } from '@crm/errors';
import { addOutboxEvent, PeopleMergedEvent, Subjects } from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import { PeopleFiles, PersonFilesService } from '../files/person-files.service';
import { PeopleService } from '../people/people.service';
import type { MergePreview, MergeResult } from './dto/merge.dto';
import type { MergePeopleInput } from './dto/merge.input';
import { MERGED_NOTE_MAX } from './merge-fields.plan';
import { MergePlan, planMerge } from './merge.planner';
import { MergeRecord, MergeRepository } from './merge.repository';

/**
 * PeopleMerge (P20, P21): sources merged into a target in one transaction, then deleted; other
 * services learn of it through a PeopleMergedEvent written to the outbox in that transaction.
 */
@Injectable()
export class MergeService {
  constructor(
    private readonly repo: MergeRepository,
    private readonly people: PeopleService,
    private readonly files: PersonFilesService,
  ) {}

  /** P21: what a merge would do, read in one statement; nothing is written. */
  async preview(ctx: RequestContext, input: MergePeopleInput): Promise<MergePreview> {
    const { targetId, sourceIds } = this.normalize(input);
    const plan = this.plan(
      ctx,
      targetId,
      sourceIds,
      await this.repo.load(ctx.tenantId, [targetId, ...sourceIds]),
    );
    const [person] = await this.people.toDtos(ctx, [plan.record]);
    return {
      targetId,
      sourceIds,
      changes: plan.changes,
      filledFields: plan.filledFields,
      noteLength: plan.noteLength,
      noteTooLong: plan.noteTooLong,
      person,
    };
  }

  /** P20 */
  async merge(ctx: RequestContext, input: MergePeopleInput): Promise<MergeResult> {
    const { targetId, sourceIds } = this.normalize(input);
    let sourceFiles: PeopleFiles | undefined;
    const plan = await this.repo.transaction(async (tx) => {
      const records = await this.repo.lockAndLoad(tx, ctx.tenantId, [targetId, ...sourceIds]);
      const planned = this.plan(ctx, targetId, sourceIds, records);
      if (planned.noteTooLong) {
        // the notes of the sources together: the field to change is which sources merge
        throw AppException.conflictOn('sourceIds', 'mergedNoteTooLong', 'merge.noteTooLong', {
          length: planned.noteLength,
          max: MERGED_NOTE_MAX,
        });
      }
      // The sources' profile images are not carried over: their files go once the sources are
      // gone. Documents move to the target and keep their files (keys: none to remove).
      const files = await this.files.collect(ctx.tenantId, sourceIds, tx);
      sourceFiles = { ...files, keys: [] };
      await this.repo.apply(tx, planned.write);
      const event: PeopleMergedEvent = { tenantId: ctx.tenantId, targetId, sourceIds };
      await addOutboxEvent(tx, {
        tenantId: ctx.tenantId,
        subject: Subjects.crmPeople.peopleMerged,
        payload: event,
      });
      return planned;
    });
    if (sourceFiles) await this.files.remove(sourceFiles);
    return {
      targetId,
      deletedIds: sourceIds,
      changes: plan.changes,
      filledFields: plan.filledFields,
      person: await this.people.get(ctx, targetId),
    };
  }

  /**
   * Every bad item by index (malformed, or the target itself). Ids compare lower case; a source
   * named twice is merged once.
   */
  private normalize(input: MergePeopleInput): { targetId: string; sourceIds: string[] } {
    const targetId = input.targetId.toLowerCase();
    const lower = input.sourceIds.map((id) => id.toLowerCase());
    const problems: FieldProblem[] = [];
    lower.forEach((id, i) => {
      const field = `sourceIds[${i}]`;
      if (!isUuid(id)) problems.push({ field, rule: 'isUuid' });
      else if (id === targetId) {
        problems.push({
          field,
          rule: 'sourceIsTarget',
          messageKey: 'merge.problems.sourceIsTarget',
        });
      }
    });
    if (problems.length) throw AppException.validation(problems);
    return { targetId, sourceIds: [...new Set(lower)] };
  }

  /** 404 for any id that is not a person of the tenant (another tenant's people included). */
  private plan(
    ctx: RequestContext,
    targetId: string,
    sourceIds: string[],
    records: MergeRecord[],
  ): MergePlan {
    const byId = new Map(records.map((r) => [r.id, r]));
    const missing = [targetId, ...sourceIds].filter((id) => !byId.has(id));
    if (missing.length) throw AppException.notFound('Person', missing.join(', '));
    return planMerge(
      ctx.tenantId,
      byId.get(targetId)!,
      sourceIds.map((id) => byId.get(id)!),
      actorOf(ctx),
    );
  }
}
