import { Injectable } from '@nestjs/common';
import { actorOf, createdStamps } from '@crm/persistence';
import { AppException, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { Company, CompanyNoteOutput } from './dto/company.output';
import type { CreateCompanyInput } from './dto/company.input';
import { CompaniesReadRepository } from './companies-read.repository';
import { CompaniesRepository, CompanyRecord } from './companies.repository';
import { newCompanyScalars } from './company-changes';
import { CompanyChecks } from './company-checks.service';
import { lookupDomain } from './company-domain';
import { CompanyLookup } from './company-lookup.service';
import { referencedEntryIds, toCompany, toCompanyNote } from './company.mapper';
import type { Tx } from '../database/tx';

/** Companies use cases; REST controller and GraphQL resolver both call these, so rules live here once. */
@Injectable()
export class CompaniesService {
  constructor(
    private readonly repo: CompaniesRepository,
    private readonly reads: CompaniesReadRepository,
    private readonly settings: SettingsLookupService,
    private readonly checks: CompanyChecks,
    private readonly lookup: CompanyLookup,
  ) {}

  /** Records -> resources; the texts of every settings entry they refer to in one lookup. */
  async toDtos(ctx: RequestContext, records: CompanyRecord[]): Promise<Company[]> {
    const entries = await this.settings.anyEntries(
      ctx.tenantId,
      new Set(records.flatMap(referencedEntryIds)),
      ctx.language,
    );
    return records.map((r) => toCompany(r, entries));
  }

  /** C2: a malformed, unknown or foreign id is the same 404. */
  async get(ctx: RequestContext, id: string): Promise<Company> {
    const record = isUuid(id) ? await this.repo.findById(ctx.tenantId, id.toLowerCase()) : null;
    if (!record) throw this.lookup.notFound(ctx, id);
    return (await this.toDtos(ctx, [record]))[0];
  }

  /** Many companies by id in one query, in the order asked; unknown ids give null. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<(Company | null)[]> {
    const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const records = valid.length ? await this.repo.findByIds(ctx.tenantId, valid) : [];
    const byId = new Map((await this.toDtos(ctx, records)).map((c) => [c.id, c]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /**
   * C3: by the domain of its website or of one of its e-mail addresses. `domain` may also be an
   * e-mail address or a URL (reduced to its host). Website matches first, then the oldest.
   */
  async byDomain(ctx: RequestContext, given: string): Promise<Company> {
    const domain = lookupDomain(given);
    if (!domain) throw AppException.validation([this.checks.problem('domain', 'isDomain', ctx)]);
    const id = await this.reads.idByDomain(ctx.tenantId, domain);
    const record = id ? await this.repo.findById(ctx.tenantId, id) : null;
    if (!record) throw this.lookup.notFound(ctx, domain);
    return (await this.toDtos(ctx, [record]))[0];
  }

  /** NATS companyExists: whether the company is the tenant's, and its name. */
  async exists(tenantId: string, id: string): Promise<{ exists: boolean; name?: string }> {
    const name = await this.repo.nameOf(tenantId, id.toLowerCase());
    return name === null ? { exists: false } : { exists: true, name };
  }

  /** C4 (checked by the validation pipe: shape and limits; here: list entries). */
  async create(ctx: RequestContext, input: CreateCompanyInput): Promise<Company> {
    // read outside any transaction and side by side: the entries the body names by id are
    // checked, tags given by text looked up; the entry problems answer first
    const reads = [
      this.checks.entryProblems(ctx, [{ prefix: '', input }]),
      this.settings.findTags(
        this.repo.client,
        ctx.tenantId,
        'TAGS',
        input.tags ?? [],
        'tags',
        ctx.language,
      ),
    ] as const;
    await Promise.allSettled(reads);
    const problems = await reads[0];
    if (problems.length) throw AppException.validation(problems);
    const tags = await reads[1];
    const now = new Date();
    const lifecycleId = input.lifecycle?.lifecycleId?.toLowerCase() ?? null;
    const write = async (db: Tx) => {
      const entries = await this.settings.createTags(db, tags);
      return this.repo.create(
        db,
        {
          tenantId: ctx.tenantId,
          ...newCompanyScalars(input),
          lifecycleId,
          lifecycleChanged: lifecycleId ? now : null,
          dateCreated: now,
          ...createdStamps(ctx),
        },
        entries,
        lifecycleId ? { lifecycleId, dateChanged: now } : null,
      );
    };
    // When every tag has its entry, the company with its tags and history is one nested insert,
    // atomic by itself: no interactive transaction, no lock. A tag text new to the tenant is
    // created in the company's transaction, so a company refused by the database leaves no
    // entry behind (the insert takes no lock either: ON CONFLICT DO NOTHING against the unique
    // index ignoring case, see SettingsLookup.createTags).
    const record = tags.toCreate.length
      ? await this.repo.transaction(write)
      : await write(this.repo.client);
    return (await this.toDtos(ctx, [record]))[0];
  }

  /** C9: null clears the note (the note record stays, with who cleared it). */
  async updateNote(
    ctx: RequestContext,
    id: string,
    note: string | null,
  ): Promise<CompanyNoteOutput> {
    const saved = await this.repo.transaction(async (tx) => {
      await this.lookup.lock(tx, ctx, id);
      return this.repo.upsertNote(tx, ctx.tenantId, id.toLowerCase(), note, actorOf(ctx));
    });
    return toCompanyNote(saved);
  }
}
