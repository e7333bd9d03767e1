import { Injectable } from '@nestjs/common';
import { AppException, listProblems, throwIfProblems, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { PeopleFiles, PersonFilesService } from '../files/person-files.service';
import type { PeopleDeleted } from './dto/people-results.dto';
import { PeopleChecks } from './people-checks.service';
import { requirePersonId } from './people-input';
import { PeopleWriteRepository } from './people-write.repository';
import { PeopleRepository } from './people.repository';

/**
 * P6, P10: people are deleted with everything that hangs on them, and a PeopleDeletedEvent is
 * written to the outbox in the same transaction, so other services learn of it exactly when the
 * delete commits (the relay publishes it; a NATS outage delays it, never loses it).
 */
@Injectable()
export class PeopleDeleteService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly writes: PeopleWriteRepository,
    private readonly checks: PeopleChecks,
    private readonly files: PersonFilesService,
  ) {}

  /** P6 */
  async delete(ctx: RequestContext, id: string): Promise<PeopleDeleted> {
    requirePersonId(id);
    let files: PeopleFiles | undefined;
    const deletedIds = await this.repo.transaction(async (tx) => {
      // Stored bytes are not rows: note them before the cascade, remove them after the commit.
      files = await this.files.collect(ctx.tenantId, [id.toLowerCase()], tx);
      return this.writes.deleteWithEvent(tx, ctx.tenantId, [id.toLowerCase()]);
    });
    // Nothing deleted means nothing written: no event either.
    if (!deletedIds.length) throw AppException.notFound('Person', id);
    if (files) await this.files.remove(files);
    return { deletedIds };
  }

  /** P10: all or nothing; malformed and unknown ids are reported by index (`ids[3]`). */
  async deleteMany(ctx: RequestContext, ids: unknown): Promise<PeopleDeleted> {
    const problems = listProblems(ids, 'ids');
    const list = problems.length ? [] : (ids as unknown[]);
    list.forEach((id, i) => {
      if (!isUuid(id)) problems.push(this.checks.problem(`ids[${i}]`, 'isUuid', ctx));
    });
    problems.push(
      ...(await this.checks.unknownPeople(
        ctx,
        list.map((id, i) => ({ field: `ids[${i}]`, id: String(id) })),
      )),
    );
    throwIfProblems(problems);
    // The same id twice names one person: deleting it once does what was asked.
    const unique = [...new Set((list as string[]).map((id) => id.toLowerCase()))];
    let files: PeopleFiles | undefined;
    const deletedIds = await this.repo.transaction(async (tx) => {
      files = await this.files.collect(ctx.tenantId, unique, tx);
      const deleted = await this.writes.deleteWithEvent(tx, ctx.tenantId, unique);
      if (deleted.length !== unique.length) {
        // Another request deleted some of them meanwhile: report them, roll back the rest.
        const gone = new Set(deleted);
        throw AppException.validation(
          (list as string[]).flatMap((id, i) =>
            gone.has(id.toLowerCase())
              ? []
              : [this.checks.problem(`ids[${i}]`, 'unknownPerson', ctx)],
          ),
        );
      }
      return deleted;
    }, true);
    if (files) await this.files.remove(files);
    return { deletedIds };
  }
}
