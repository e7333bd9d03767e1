import { Inject, Injectable } from '@nestjs/common';
import { AppException } from '@crm/errors';
import { ImageFiles, StoredImage } from '@crm/files';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage, ReceivedFile } from '@crm/storage';
import type { FileAnswer } from '@crm/storage';
import { CompanyLookup } from '../../companies/company-lookup.service';
import type { CompanyFileDeleted } from '../dto/file-deleted.output';
import { logoFolder } from '../files.storage';
import type { CompanyLogo } from './dto/company-logo.output';
import { DEFAULT_LOGO_SIZE, LOGO_RENDERING, LOGO_SIZES, LogoSize } from './logo-rendering';
import { LogoRepository } from './logo.repository';
import type { Tx } from '../../database/tx';

export const logoUrl = (companyId: string, size: LogoSize) =>
  `/v1/crm/companies/${companyId}/logo?size=${size}`;

const toLogo = (logo: StoredImage<LogoSize>): CompanyLogo => ({
  companyId: logo.ownerId,
  dateModified: logo.dateModified?.toISOString() ?? null,
  images: logo.images.map((i) => ({ ...i, url: logoUrl(logo.ownerId, i.size) })),
});

/**
 * Logos (C28): @crm/files' ImageFiles on Company.logo (the company row locked while it
 * changes), sizes as LOGO_RENDERING derives them; this service shapes the answers.
 */
@Injectable()
export class LogoService {
  private readonly logos: ImageFiles<LogoSize, Tx>;

  constructor(
    repo: LogoRepository,
    companies: CompanyLookup,
    @Inject(FILE_STORAGE) storage: FileStorage,
  ) {
    this.logos = new ImageFiles(storage, repo, {
      name: 'CompanyLogo',
      rendering: LOGO_RENDERING,
      folder: logoFolder,
      ownerNotFound: (ctx, companyId) => companies.notFound(ctx, companyId),
      noneMessage: 'files.logo.none',
    });
  }

  /** The logo's sizes with their addresses; null when the company has none. */
  async describe(ctx: RequestContext, companyId: string): Promise<CompanyLogo | null> {
    const logo = await this.logos.describe(ctx, companyId);
    return logo && toLogo(logo);
  }

  /** C28 POST: renders every size, stores them, then points the company at them. */
  async upload(
    ctx: RequestContext,
    companyId: string,
    file: ReceivedFile | undefined,
  ): Promise<CompanyLogo> {
    return toLogo(await this.logos.upload(ctx, companyId, file));
  }

  /** C28 DELETE: the company loses its logo, then the files go. */
  remove(ctx: RequestContext, companyId: string): Promise<CompanyFileDeleted> {
    return this.logos.remove(ctx, companyId);
  }

  /** C28 GET: one size's bytes (default original); another size is a 400. */
  open(ctx: RequestContext, companyId: string, size: string | undefined): Promise<FileAnswer> {
    const wanted = size ?? DEFAULT_LOGO_SIZE;
    if (!this.logos.isSize(wanted)) {
      throw AppException.invalidField('size', 'isIn', { constraint1: LOGO_SIZES.join(', ') });
    }
    return this.logos.open(ctx, companyId, wanted);
  }
}
