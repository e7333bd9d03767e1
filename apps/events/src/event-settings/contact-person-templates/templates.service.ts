import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, checkObject, isUuid, orThrow } from '@crm/errors';
import { copyImageFiles, ImageFiles, type StoredImage } from '@crm/files';
import type { Language } from '@crm/i18n';
import { PageQuery, parseSort, skipTake } from '@crm/paging';
import { createdStamps, modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage, FileAnswer, ReceivedFile } from '@crm/storage';
import { ContactPersonTemplateInput } from './dto/template.input';
import type {
  ContactPersonTemplate,
  TemplateImage,
  TemplateImageDeleted,
} from './dto/template.output';
import {
  DEFAULT_TEMPLATE_IMAGE_SIZE,
  TEMPLATE_IMAGE_RENDERING,
  TEMPLATE_IMAGE_SIZES,
  TemplateImageSizeName,
  templateFilesPrefix,
  templateImageFolder,
  templateImageUrl,
} from './template-image-rendering';
import type { Tx } from '../../database/tx';
import { TEMPLATE_SORT_FIELDS, TemplateRow, TemplatesRepository } from './templates.repository';

const NAME_MAX = 200;
const FIELDS = [
  'salutation',
  'title',
  'firstname',
  'lastname',
  'position',
  'email',
  'phone',
] as const;

const imageOf = (row: TemplateRow): TemplateImage | null =>
  row.image && isUuid(row.image)
    ? {
        dateModified: row.imageDateModified?.toISOString() ?? null,
        images: TEMPLATE_IMAGE_SIZES.map((size) => ({ size, url: templateImageUrl(row.id, size) })),
      }
    : null;

export function toTemplate(row: TemplateRow): ContactPersonTemplate {
  return {
    id: row.id,
    name: row.name,
    salutation: row.salutation,
    title: row.title,
    firstname: row.firstname,
    lastname: row.lastname,
    position: row.position,
    email: row.email,
    phone: row.phone,
    image: imageOf(row),
    createdBy: row.createdBy,
    modifiedBy: row.modifiedBy,
    dateCreated: row.dateCreated.toISOString(),
    dateModified: row.dateModified.toISOString(),
  };
}

const toImage = (image: StoredImage<TemplateImageSizeName>): TemplateImage => ({
  dateModified: image.dateModified?.toISOString() ?? null,
  images: image.images.map((i) => ({
    size: i.size,
    url: templateImageUrl(image.ownerId, i.size),
    width: i.width,
    height: i.height,
  })),
});

/**
 * Contact person templates (ES4 list, ES5 CRUD, ES6 copy, ES7 image). A template is copied into
 * an event's contact person when an event uses it, so events do not depend on it: changing or
 * deleting it leaves events as they are (an event keeps the templateId it came from).
 */
@Injectable()
export class TemplatesService {
  private readonly logger = new Logger('ContactPersonTemplates');
  private readonly images: ImageFiles<TemplateImageSizeName, Tx>;

  constructor(
    private readonly repo: TemplatesRepository,
    private readonly i18n: I18nService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {
    this.images = new ImageFiles(storage, repo, {
      name: 'ContactPersonTemplateImage',
      rendering: TEMPLATE_IMAGE_RENDERING,
      folder: templateImageFolder,
      ownerNotFound: (ctx, id) => this.notFound(ctx.language, id),
      noneMessage: 'settings.templates.noImage',
    });
  }

  notFound(lang: Language, id: string): AppException {
    return AppException.notFound(this.i18n.t('settings.resource.template', { lang }) as string, id);
  }

  private async row(ctx: RequestContext, id: string): Promise<TemplateRow> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id.toLowerCase()) : null;
    if (!row) throw this.notFound(ctx.language, id);
    return row;
  }

  private fields(input: ContactPersonTemplateInput) {
    const out: Record<string, string | null> = { name: input.name.trim() };
    for (const f of FIELDS) out[f] = input[f]?.trim() || null;
    return out as { name: string } & Record<(typeof FIELDS)[number], string | null>;
  }

  private check(raw: unknown): ContactPersonTemplateInput {
    const checked = checkObject(ContactPersonTemplateInput, raw);
    if (
      !checked.problems.length &&
      typeof checked.value.name === 'string' &&
      !checked.value.name.trim()
    )
      checked.problems.push({ field: 'name', rule: 'isNotEmpty' });
    return orThrow(checked);
  }

  /** ES4 `contact-person-templates`: paged, `q` over name, names and e-mail, sort by name (default). */
  async list(ctx: RequestContext, query: PageQuery): Promise<Paged<ContactPersonTemplate>> {
    const sort = parseSort(query.sort, TEMPLATE_SORT_FIELDS, [{ field: 'name', direction: 'asc' }]);
    const { skip, take } = skipTake(query);
    const [rows, total] = await this.repo.page(
      ctx.tenantId,
      query.q?.trim() || undefined,
      [...sort, { field: 'id', direction: 'asc' }],
      skip,
      take,
    );
    return paged(rows.map(toTemplate), total);
  }

  async get(ctx: RequestContext, id: string): Promise<ContactPersonTemplate> {
    return toTemplate(await this.row(ctx, id));
  }

  /** ES5 create. */
  async create(ctx: RequestContext, raw: unknown): Promise<ContactPersonTemplate> {
    const input = this.check(raw);
    const row = await this.repo.create({
      tenantId: ctx.tenantId,
      ...this.fields(input),
      ...createdStamps(ctx),
    });
    return toTemplate(row);
  }

  /** ES5 update: PUT replaces every field (absent optional fields become null). */
  async update(ctx: RequestContext, id: string, raw: unknown): Promise<ContactPersonTemplate> {
    if (!isUuid(id)) throw this.notFound(ctx.language, id);
    const input = this.check(raw);
    const ok = await this.repo.update(ctx.tenantId, id.toLowerCase(), {
      ...this.fields(input),
      ...modifiedStamps(ctx),
    });
    if (!ok) throw this.notFound(ctx.language, id);
    return this.get(ctx, id);
  }

  /** ES5 delete: the row, then its files (best effort, after the commit). */
  async delete(ctx: RequestContext, id: string): Promise<ContactPersonTemplate> {
    const row = await this.row(ctx, id);
    if (!(await this.repo.delete(ctx.tenantId, row.id))) throw this.notFound(ctx.language, id);
    await this.storage
      .deletePrefix(templateFilesPrefix(ctx.tenantId, row.id))
      .catch((err: Error) => this.logger.warn(`files of template ${row.id} stay: ${err.message}`));
    return toTemplate(row);
  }

  /**
   * ES6: a new template with the same fields, named "<name> (copy)" in the caller's language,
   * and a copy of the image's files under the new template (its own version folder), so either
   * can change or lose its image without touching the other.
   */
  async copy(ctx: RequestContext, id: string): Promise<ContactPersonTemplate> {
    const source = await this.row(ctx, id);
    const newId = randomUUID();
    const version = source.image && isUuid(source.image) ? randomUUID() : null;
    if (version) await this.copyImage(ctx.tenantId, source.id, source.image!, newId, version);
    const name = this.i18n.t('settings.templates.copyName', {
      lang: ctx.language,
      args: { name: source.name },
    }) as string;
    try {
      const row = await this.repo.create({
        id: newId,
        tenantId: ctx.tenantId,
        name: name.slice(0, NAME_MAX),
        ...Object.fromEntries(FIELDS.map((f) => [f, source[f]])),
        image: version,
        imageDateModified: version ? new Date() : null,
        ...createdStamps(ctx),
      });
      return toTemplate(row);
    } catch (err) {
      await this.storage.deletePrefix(templateFilesPrefix(ctx.tenantId, newId)).catch(() => 0);
      throw err;
    }
  }

  /** Copies every file of one image version (sizes and manifest) to another template. */
  private async copyImage(
    tenantId: string,
    fromId: string,
    fromVersion: string,
    toId: string,
    toVersion: string,
  ): Promise<void> {
    const from = templateImageFolder(tenantId, fromId, fromVersion);
    const to = templateImageFolder(tenantId, toId, toVersion);
    try {
      await copyImageFiles(
        this.storage,
        from,
        to,
        TEMPLATE_IMAGE_SIZES.map((s) => `${s}.webp`),
        (manifest) => ({ ...manifest, version: toVersion }),
      );
    } catch (err) {
      await this.storage.deletePrefix(templateFilesPrefix(tenantId, toId)).catch(() => 0);
      throw err;
    }
  }

  /** ES7 GET: the sizes with their dimensions; null when the template has no image. */
  async describeImage(ctx: RequestContext, id: string): Promise<TemplateImage | null> {
    const image = await this.images.describe(ctx, id);
    return image && toImage(image);
  }

  /** ES7 POST: renders every size, then points the template at them (replacing any image). */
  async uploadImage(
    ctx: RequestContext,
    id: string,
    file: ReceivedFile | undefined,
  ): Promise<TemplateImage> {
    return toImage(await this.images.upload(ctx, id, file));
  }

  /** ES7 DELETE. */
  async removeImage(ctx: RequestContext, id: string): Promise<TemplateImageDeleted> {
    return this.images.remove(ctx, id);
  }

  /** ES7 GET bytes of one size (default original); another size is a 400. */
  openImage(ctx: RequestContext, id: string, size: string | undefined): Promise<FileAnswer> {
    const wanted = size ?? DEFAULT_TEMPLATE_IMAGE_SIZE;
    if (!this.images.isSize(wanted))
      throw AppException.invalidField('size', 'isIn', {
        constraint1: TEMPLATE_IMAGE_SIZES.join(', '),
      });
    return this.images.open(ctx, id, wanted);
  }
}
