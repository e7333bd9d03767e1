import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { createHash, randomUUID } from 'node:crypto';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import type { Language } from '@crm/i18n';
import { acrossTenants, asTenant, type RequestContext } from '@crm/request-context';
import { afterCommit } from '@crm/persistence';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';
import { TombstonesRepository } from '../cross-service/tombstones.repository';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { EventLookup } from '../event-copies/event-lookup.service';
import { type ImportJob, Prisma } from '../generated/prisma/client';
import type {
  ImportRowResult,
  InvitationImportJob,
  InvitationImportPreview,
} from './dto/invitation.output';
import { ImportRow, parseImportFile, rowProblems, RowProblem } from './import-file';
import { ImportJobsRepository } from './import-jobs.repository';
import { InvitationsRepository, NewInvitation } from './invitations.repository';
import { newToken } from './invitations.service';
import { PeopleContacts } from './people-contacts';
import type { Tx } from '../database/tx';

/** Rows per statement (and per transaction, progress step and NATS batch). */
export const IMPORT_CHUNK = 1000;
/** Longest a job may run before its claim lapses (10,000 rows take seconds). */
const IMPORT_JOB_MAX_MS = 6 * 60 * 60 * 1000;
const PREVIEW_ROWS = 20;

/** A row as checked: ready to insert, or its problems. */
type Checked =
  | { row: number; ok: true; value: Omit<NewInvitation, 'id' | 'token'> }
  | { row: number; ok: false; problems: RowProblem[] };

/** What a job stores of its file until it has run: the mapped rows and the uploader's language. */
interface StoredRows {
  language: string;
  rows: ImportRow[];
}

/** A row's result as stored (problems untranslated: a reader gets them in their language). */
interface StoredResult {
  row: number;
  status: 'created' | 'skipped' | 'failed';
  invitationId?: string;
  errors?: RowProblem[];
}

export interface UploadedImport {
  buffer: Buffer;
  name: string;
  mimetype: string;
}

/**
 * Imports of invitations from CSV or XLSX files: a preview that writes nothing (IN13) and a job
 * (IN14) run by a worker of this service. Any replica may run a queued job; the claim (an
 * advisory lock tried without waiting, held while the job runs) lets exactly one do so. Rows are inserted in multi-row statements, an address
 * already invited to the event skipped by the unique key, so a second upload invites nobody twice.
 */
@Injectable()
export class InvitationImportService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InvitationImportService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly jobs: ImportJobsRepository,
    private readonly repo: InvitationsRepository,
    private readonly events: EventLookup,
    private readonly copies: EventCopiesRepository,
    private readonly people: PeopleContacts,
    private readonly i18n: I18nService,
    @Inject(SERVICE_CONFIG) private readonly config: BookingsInvitationsConfig,
    private readonly tombstones: TombstonesRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), this.config.IMPORT_POLL_INTERVAL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Before the database goes: a running chunk finishes, the job stops there (failed). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private fileMissing(): AppException {
    return new AppException(ErrorCode.BAD_REQUEST, 'invitations.fileMissing');
  }

  private async eventOf(ctx: RequestContext, eventId: string | undefined): Promise<string> {
    if (!eventId) throw new AppException(ErrorCode.BAD_REQUEST, 'invitations.eventIdMissing');
    if (!isUuid(eventId)) {
      throw AppException.validation([{ field: 'eventId', rule: 'isUuid' }]);
    }
    await this.events.require(ctx, eventId);
    return eventId.toLowerCase();
  }

  /**
   * Checks rows: the row's own rules, the people over NATS (one request per 1000), an address
   * twice in the file (`seen` spans the chunks of a job). People's names and e-mail fill what the
   * row leaves empty.
   */
  private async check(
    tenantId: string,
    rows: ImportRow[],
    language: string,
    seen: Map<string, number>,
  ): Promise<Checked[]> {
    const own = rows.map((r) => rowProblems(r));
    const asked = rows.flatMap((r, i) => (!own[i].length && r.personId ? [r.personId] : []));
    const { people } = asked.length
      ? await this.people.lookup(tenantId, asked)
      : { people: new Map() };
    return rows.map((r, i): Checked => {
      if (own[i].length) return { row: r.row, ok: false, problems: own[i] };
      const person = r.personId ? people.get(r.personId) : undefined;
      if (r.personId && !person) {
        return {
          row: r.row,
          ok: false,
          problems: [{ field: 'personId', rule: 'unknownPerson', args: { value: r.personId } }],
        };
      }
      const email = r.email ?? person?.email ?? null;
      if (!email) return { row: r.row, ok: false, problems: [{ field: 'email', rule: 'noEmail' }] };
      const key = email.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined && first !== r.row) {
        return {
          row: r.row,
          ok: false,
          problems: [
            { field: 'email', rule: 'duplicateInFile', args: { value: email, row: first } },
          ],
        };
      }
      seen.set(key, r.row);
      return {
        row: r.row,
        ok: true,
        value: {
          personId: r.personId,
          email,
          firstname: r.firstname ?? person?.firstname ?? null,
          lastname: r.lastname ?? person?.lastname ?? null,
          language:
            r.language ??
            (person?.language === 'de' || person?.language === 'en' ? person.language : language),
        },
      };
    });
  }

  /**
   * The first step of the transaction that inserts `checked`: holds the tenant's people against
   * the consumers of their deletion or merge until the commit (one lock for the chunk; a chunk
   * without people takes none), and fails the rows of those applied since the check as
   * `unknownPerson`.
   */
  private async buried(tx: Tx, tenantId: string, checked: Checked[]): Promise<Checked[]> {
    const people = checked.flatMap((c) => (c.ok && c.value.personId ? [c.value.personId] : []));
    const gone = await this.tombstones.deletedPeopleInBulk(tx, tenantId, people);
    if (!gone.size) return checked;
    return checked.map((c): Checked => {
      const personId = c.ok ? c.value.personId : null;
      if (!personId || !gone.has(personId.toLowerCase())) return c;
      return {
        row: c.row,
        ok: false,
        problems: [{ field: 'personId', rule: 'unknownPerson', args: { value: personId } }],
      };
    });
  }

  private translate(problems: RowProblem[], lang: Language) {
    return problems.map((p) => ({
      field: p.field,
      rule: p.rule,
      message: this.i18n.t(`invitations.problems.${p.rule}`, {
        lang,
        args: { field: p.field, ...p.args },
      }) as string,
    }));
  }

  /** IN13: what the import would do, nothing written. */
  async preview(
    ctx: RequestContext,
    file: UploadedImport | undefined,
    eventIdField: string | undefined,
  ): Promise<InvitationImportPreview> {
    const eventId = await this.eventOf(ctx, eventIdField);
    if (!file) throw this.fileMissing();
    const parsed = await parseImportFile(file.buffer, file.name, file.mimetype);
    const seen = new Map<string, number>();
    const checked: Checked[] = [];
    for (let i = 0; i < parsed.rows.length; i += IMPORT_CHUNK) {
      checked.push(
        ...(await this.check(
          ctx.tenantId,
          parsed.rows.slice(i, i + IMPORT_CHUNK),
          ctx.language,
          seen,
        )),
      );
    }
    const keys = checked.flatMap((c) => (c.ok ? [c.value.email.toLowerCase()] : []));
    const taken = await this.repo.takenKeys(ctx.tenantId, eventId, keys);
    return {
      columns: parsed.columns,
      totalRows: parsed.rows.length,
      validRows: keys.length,
      alreadyInvited: taken.size,
      rows: checked.slice(0, PREVIEW_ROWS).map((c, i) => ({
        ...parsed.rows[i],
        ...(c.ok ? c.value : {}),
      })),
      errors: checked.flatMap((c) =>
        c.ok
          ? []
          : [{ row: c.row, status: 'failed', errors: this.translate(c.problems, ctx.language) }],
      ),
    };
  }

  /** IN14 POST: the file is read now (a bad one is refused at once), its rows run as a job. */
  async enqueue(
    ctx: RequestContext,
    file: UploadedImport | undefined,
    eventIdField: string | undefined,
  ): Promise<{ jobId: string }> {
    const eventId = await this.eventOf(ctx, eventIdField);
    if (!file) throw this.fileMissing();
    const parsed = await parseImportFile(file.buffer, file.name, file.mimetype);
    const id = randomUUID();
    const stored: StoredRows = { language: ctx.language, rows: parsed.rows };
    await this.jobs.create({
      id,
      tenantId: ctx.tenantId,
      eventId,
      fileName: file.name.slice(0, 300) || 'import',
      fileHash: createHash('sha256').update(file.buffer).digest('hex'),
      status: 'queued',
      totalRows: parsed.rows.length,
      rows: stored as unknown as Prisma.InputJsonValue,
      actor: ctx.integrationName,
    });
    // once the job is committed: a keyed POST commits after its answer is written
    afterCommit(() => this.kick());
    return { jobId: id };
  }

  /** IN14 GET. */
  async job(
    ctx: RequestContext,
    jobId: string,
    which: 'all' | 'failed' | 'none' = 'all',
  ): Promise<InvitationImportJob> {
    const job = isUuid(jobId) ? await this.jobs.findView(ctx.tenantId, jobId.toLowerCase()) : null;
    if (!job) {
      const resource = this.i18n.t('invitations.resource.importJob', { lang: ctx.language });
      throw AppException.notFound(resource as string, jobId);
    }
    const stored = which === 'none' ? null : (job.results as StoredResult[] | null);
    const results = stored
      ?.filter((r) => which === 'all' || r.status === 'failed')
      .map((r): ImportRowResult => ({
        row: r.row,
        status: r.status,
        invitationId: r.invitationId ?? null,
        ...(r.errors ? { errors: this.translate(r.errors, ctx.language) } : {}),
      }));
    return {
      id: job.id,
      eventId: job.eventId,
      fileName: job.fileName,
      status: job.status,
      totalRows: job.totalRows,
      processed: job.processed,
      progress: job.totalRows ? Math.floor((job.processed * 100) / job.totalRows) : 100,
      created: job.created,
      skipped: job.skipped,
      failed: job.failed,
      results: results ?? null,
      error: job.error,
      dateCreated: job.dateCreated.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
    };
  }

  /** Runs queued jobs now (after an upload, on the timer); one loop per process at a time. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.logger.error(`import worker: ${String(err)}`))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.runOne()));
  }

  /**
   * Claims one job and runs it; answers whether there was one. The claim is the job's advisory
   * lock, taken with a try (like SKIP LOCKED: a replica never waits for another's job) in a
   * transaction that stays open while the job runs: its connection is the worker's heartbeat. So
   * two replicas never run one job, and a job whose worker died (connection gone, lock released)
   * is taken up again, still `running`, by the next poll of any replica, and resumed: its rows
   * already inserted count as created, not as skipped. Progress and inserts are written on other
   * connections, so they are visible while the job runs. The claim looks across tenants (the
   * jobs are one queue for all of them); the job runs as its tenant.
   */
  private runOne(): Promise<boolean> {
    return acrossTenants('claim of queued invitation import jobs', async () =>
      this.jobs.claimOne(IMPORT_JOB_MAX_MS, (job) =>
        asTenant(job.tenantId, async () => this.runClaimed(job)),
      ),
    );
  }

  private async runClaimed(job: ImportJob): Promise<void> {
    try {
      await this.run(job);
    } catch (err) {
      if (this.stopped) {
        // left running: the lock goes with this process, another replica resumes the job
        this.logger.warn(`import job ${job.id} interrupted by shutdown; it will be resumed`);
        return;
      }
      const message = err instanceof AppException ? err.messageKey : String(err);
      this.logger.error(`import job ${job.id} failed: ${message}`);
      await this.jobs.update(job.id, { status: 'failed', error: message, finishedAt: new Date() });
    }
  }

  /** Chunk by chunk, each in its own transaction, so progress is visible while it runs. */
  private async run(job: ImportJob): Promise<void> {
    const stored = job.rows as unknown as StoredRows;
    const results: StoredResult[] = [];
    const seen = new Map<string, number>();
    let created = 0;
    let skipped = 0;
    let failed = 0;
    for (let i = 0; i < stored.rows.length; i += IMPORT_CHUNK) {
      if (this.stopped) throw new Error('service stopped during the import');
      const chunk = stored.rows.slice(i, i + IMPORT_CHUNK);
      const confirmed = await this.check(job.tenantId, chunk, stored.language, seen);
      await this.repo.transaction(async (tx) => {
        // people deleted or merged away since confirmed: their rows fail as unknown. First,
        // before any row lock: the consumer, holding a person, waits for their invitations.
        const checked = await this.buried(tx, job.tenantId, confirmed);
        const ready = checked.flatMap((c) =>
          c.ok ? [{ row: c.row, ...c.value, id: randomUUID(), token: newToken() }] : [],
        );
        if (await this.copies.deletedForShare(tx, job.tenantId, job.eventId)) {
          throw new Error(`event ${job.eventId} was deleted`);
        }
        const inserted = await this.repo.insertMany(
          tx,
          job.tenantId,
          job.eventId,
          job.id,
          job.actor,
          ready,
        );
        // a resumed job: what it inserted before its worker died is its own, not a duplicate
        const earlier = await this.repo.importedBy(
          tx,
          job.tenantId,
          job.eventId,
          job.id,
          ready.filter((r) => !inserted.has(r.id)).map((r) => r.email.toLowerCase()),
        );
        const idOf = new Map(
          ready.map((r) => [r.row, inserted.has(r.id) ? r.id : earlier.get(r.email.toLowerCase())]),
        );
        for (const c of checked) {
          const invitationId = idOf.get(c.row);
          if (!c.ok) {
            failed++;
            results.push({ row: c.row, status: 'failed', errors: c.problems });
          } else if (invitationId) {
            created++;
            results.push({ row: c.row, status: 'created', invitationId });
          } else {
            skipped++;
            results.push({ row: c.row, status: 'skipped' });
          }
        }
        await this.jobs.update(
          job.id,
          { processed: i + chunk.length, created, skipped, failed },
          tx,
        );
      });
    }
    await this.jobs.update(job.id, {
      status: 'done',
      results: results as unknown as Prisma.InputJsonValue,
      rows: Prisma.DbNull, // the mapped rows are not needed any more
      finishedAt: new Date(),
    });
  }
}
