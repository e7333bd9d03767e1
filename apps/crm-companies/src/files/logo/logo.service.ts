import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage, ReceivedFile, renderVariants } from '@crm/storage';
import type { FileAnswer } from '@crm/storage';
import { CompanyLookup } from '../../companies/company-lookup.service';
import type { CompanyFileDeleted } from '../dto/file-deleted.output';
import { logoFolder, logoKey } from '../files.storage';
import type { CompanyLogo } from './dto/company-logo.output';
import {
  DEFAULT_LOGO_SIZE,
  isLogoSize,
  LOGO_RENDERING,
  LOGO_SIZES,
  LogoSize,
} from './logo-rendering';
import { LogoRepository } from './logo.repository';

const MANIFEST = 'manifest.json';

/** What is known of one version's files, kept next to them (the table has one text column). */
interface Manifest {
  version: string;
  images: { size: LogoSize; width: number; height: number; contentType: string; bytes: number }[];
}

const fileName = (size: LogoSize) => `${size}.webp`;
export const logoUrl = (companyId: string, size: LogoSize) =>
  `/v1/crm/companies/${companyId}/logo?size=${size}`;

/**
 * Logos (C28): every size derived on upload and stored under a new version; Company.logo is
 * switched to it in a transaction that locks the company, and the previous version's files go
 * after the commit, so a reader never meets a missing file and two uploads cannot both think
 * they replaced the same logo. Company ids are taken in the database's lower case, so the files
 * of a company share one folder however its id was written in the path.
 */
@Injectable()
export class LogoService {
  private readonly logger = new Logger('CompanyLogo');

  constructor(
    private readonly repo: LogoRepository,
    private readonly companies: CompanyLookup,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** The current logo version of the tenant's company (null: none); 404 when no such company. */
  private async current(ctx: RequestContext, companyId: string) {
    const state = isUuid(companyId) ? await this.repo.state(ctx.tenantId, companyId) : null;
    if (!state) throw this.companies.notFound(ctx, companyId);
    // Only versions this service wrote name a folder; anything else counts as no logo.
    const version = state.logo && isUuid(state.logo) ? state.logo : null;
    return { version, dateModified: state.logoDateModified };
  }

  private static none(companyId: string) {
    return new AppException(ErrorCode.NOT_FOUND, 'files.logo.none', { id: companyId });
  }

  private toLogo(companyId: string, manifest: Manifest, dateModified: Date | null): CompanyLogo {
    return {
      companyId,
      dateModified: dateModified?.toISOString() ?? null,
      images: manifest.images.map((i) => ({ ...i, url: logoUrl(companyId, i.size) })),
    };
  }

  /** The logo's sizes with their addresses; null when the company has none. */
  async describe(ctx: RequestContext, path: string): Promise<CompanyLogo | null> {
    const companyId = path.toLowerCase();
    const { version, dateModified } = await this.current(ctx, companyId);
    if (!version) return null;
    const file = await this.storage.get(logoKey(ctx.tenantId, companyId, version, MANIFEST));
    if (!file) {
      this.logger.error(`logo ${version} of company ${companyId} has no manifest`);
      return null;
    }
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest;
    return this.toLogo(companyId, manifest, dateModified);
  }

  /** C28 POST: renders every size, stores them, then points the company at them. */
  async upload(
    ctx: RequestContext,
    path: string,
    file: ReceivedFile | undefined,
  ): Promise<CompanyLogo> {
    const companyId = path.toLowerCase();
    await this.current(ctx, companyId);
    if (!file) throw AppException.invalidField('file', 'isDefined');
    if (!file.size) throw AppException.invalidField('file', 'isNotEmpty');
    const variants = await renderVariants(file.buffer, LOGO_RENDERING);

    const version = randomUUID();
    const manifest: Manifest = {
      version,
      images: variants.map((v) => ({
        size: v.size,
        width: v.width,
        height: v.height,
        contentType: v.contentType,
        bytes: v.data.length,
      })),
    };
    let switched: { previous: string | null; at: Date };
    try {
      await Promise.all(
        variants.map((v) =>
          this.storage.put(
            logoKey(ctx.tenantId, companyId, version, fileName(v.size)),
            v.data,
            v.contentType,
          ),
        ),
      );
      await this.storage.put(
        logoKey(ctx.tenantId, companyId, version, MANIFEST),
        Buffer.from(JSON.stringify(manifest)),
        'application/json',
      );
      switched = await this.switchTo(ctx, companyId, () => version);
    } catch (err) {
      await this.removeVersion(ctx.tenantId, companyId, version);
      throw err;
    }
    if (switched.previous) await this.removeVersion(ctx.tenantId, companyId, switched.previous);
    return this.toLogo(companyId, manifest, switched.at);
  }

  /** C28 DELETE: the company loses its logo, then the files go. */
  async remove(ctx: RequestContext, path: string): Promise<CompanyFileDeleted> {
    const companyId = path.toLowerCase();
    const { previous } = await this.switchTo(ctx, companyId, (current) => {
      if (!current) throw LogoService.none(companyId);
      return null;
    });
    if (previous) await this.removeVersion(ctx.tenantId, companyId, previous);
    return { id: companyId, deleted: true };
  }

  /** C28 GET: one size's bytes; retried once when a replace removed the version just read. */
  async open(ctx: RequestContext, path: string, size: string | undefined): Promise<FileAnswer> {
    const companyId = path.toLowerCase();
    const wanted = size ?? DEFAULT_LOGO_SIZE;
    if (!isLogoSize(wanted)) {
      throw AppException.invalidField('size', 'isIn', { constraint1: LOGO_SIZES.join(', ') });
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const { version } = await this.current(ctx, companyId);
      if (!version) break;
      const file = await this.storage.get(
        logoKey(ctx.tenantId, companyId, version, fileName(wanted)),
      );
      if (file) return { file, cacheControl: 'private, no-cache' };
    }
    throw LogoService.none(companyId);
  }

  /**
   * Company.logo from what it is to `next(current)`, with the company locked until the commit;
   * answers the version replaced (valid versions only). `next` may throw to refuse the change.
   */
  private switchTo(
    ctx: RequestContext,
    companyId: string,
    next: (current: string | null) => string | null,
  ): Promise<{ previous: string | null; at: Date }> {
    return this.repo.transaction(async (tx) => {
      await this.companies.lock(tx, ctx, companyId);
      const state = (await this.repo.state(ctx.tenantId, companyId, tx))!;
      const previous = state.logo && isUuid(state.logo) ? state.logo : null;
      const at = await this.repo.set(tx, ctx.tenantId, companyId, next(previous), {
        name: ctx.integrationName,
        userId: ctx.callerId,
      });
      return { previous, at };
    });
  }

  /** Best effort: a failure leaves unreachable bytes (logged), never a broken row. */
  private async removeVersion(tenantId: string, companyId: string, version: string) {
    await this.storage
      .deletePrefix(logoFolder(tenantId, companyId, version))
      .catch((err: Error) =>
        this.logger.warn(
          `could not remove logo ${version} of company ${companyId}: ${err.message}`,
        ),
      );
  }
}
