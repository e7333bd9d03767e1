import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import { actorOf } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { FileStorage, ReceivedFile, renderVariants } from '@crm/storage';
import type { FileAnswer, ImageRendering } from '@crm/storage';
import type { FileDeleted } from '../documents/document-files';
import type { ImageStore } from './image-store';

/** Largest image upload accepted by default (C28, P17): 5 MB. */
export const DEFAULT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

const MANIFEST = 'manifest.json';

/** One stored size of an image. */
export interface StoredImageSize<S extends string> {
  size: S;
  width: number;
  height: number;
  contentType: string;
  bytes: number;
}

/** The current image of an owner: its sizes, as the manifest beside the files lists them. */
export interface StoredImage<S extends string> {
  ownerId: string;
  version: string;
  /** When the owner's image column last changed (null when the store keeps no date). */
  dateModified: Date | null;
  images: StoredImageSize<S>[];
}

/** What is known of one version's files, kept next to them (the owner's row has one column). */
interface Manifest<S extends string> {
  version: string;
  images: StoredImageSize<S>[];
}

/** What a service says about its image besides the table access. */
export interface ImageRules<S extends string> {
  /** Logger name, e.g. `CompanyLogo`. */
  name: string;
  /** The sizes derived on upload (@crm/storage: WebP, upright, without metadata). */
  rendering: ImageRendering<S>;
  /** The folder of one version: its sizes and manifest.json, built with `storageKey`. */
  folder(tenantId: string, ownerId: string, version: string): string;
  /** The 404 of an owner the tenant does not have. */
  ownerNotFound(ctx: RequestContext, ownerId: string): AppException;
  /** i18n key of the 404 of an owner without an image ({id}), e.g. `files.logo.none`. */
  noneMessage: string;
}

const fileName = (size: string) => `${size}.webp`;
const validVersion = (v: string | null) => (v && isUuid(v) ? v : null);

/**
 * A single image of an owner with derived sizes (a profile image, a logo, an event image): every
 * size rendered on upload and stored under a new version folder; the owner's column is switched
 * to it in a transaction that locks the owner's row, and the previous version's files go after
 * the commit, so a reader never meets a missing file and two uploads cannot both think they
 * replaced the same image (the loser's files would be orphaned). Owner ids are taken in the
 * database's lower case, so an owner's files share one folder however its id was written.
 */
export class ImageFiles<S extends string, Tx> {
  protected readonly logger: Logger;

  constructor(
    protected readonly storage: FileStorage,
    protected readonly store: ImageStore<Tx>,
    protected readonly rules: ImageRules<S>,
  ) {
    this.logger = new Logger(rules.name);
  }

  /** Whether `v` is one of the sizes (a route checks it and answers its own error). */
  isSize(v: string): v is S {
    return (this.rules.rendering.sizes as readonly string[]).includes(v);
  }

  private none(ownerId: string): AppException {
    return new AppException(ErrorCode.NOT_FOUND, this.rules.noneMessage, { id: ownerId });
  }

  private key(tenantId: string, ownerId: string, version: string, name: string): string {
    return `${this.rules.folder(tenantId, ownerId, version)}/${name}`;
  }

  /** The current version (null: none) and its date; 404 when the tenant has no such owner. */
  private async current(ctx: RequestContext, ownerId: string) {
    const state = isUuid(ownerId) ? await this.store.state(ctx.tenantId, ownerId) : null;
    if (!state) throw this.rules.ownerNotFound(ctx, ownerId);
    // Only versions this library wrote name a folder; anything else counts as no image.
    return { version: validVersion(state.version), dateModified: state.dateModified };
  }

  /** The image's sizes; null when the owner has none. */
  async describe(ctx: RequestContext, path: string): Promise<StoredImage<S> | null> {
    const ownerId = path.toLowerCase();
    const { version, dateModified } = await this.current(ctx, ownerId);
    if (!version) return null;
    const file = await this.storage.get(this.key(ctx.tenantId, ownerId, version, MANIFEST));
    if (!file) {
      this.logger.error(`image ${version} of ${ownerId} has no manifest`);
      return null;
    }
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest<S>;
    return { ownerId, version, dateModified, images: manifest.images };
  }

  /** Renders every size, stores them under a new version, then points the owner at it. */
  async upload(
    ctx: RequestContext,
    path: string,
    file: ReceivedFile | undefined,
  ): Promise<StoredImage<S>> {
    const ownerId = path.toLowerCase();
    await this.current(ctx, ownerId);
    if (!file) throw AppException.invalidField('file', 'isDefined');
    if (!file.size) throw AppException.invalidField('file', 'isNotEmpty');
    const variants = await renderVariants(file.buffer, this.rules.rendering);

    const version = randomUUID();
    const manifest: Manifest<S> = {
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
            this.key(ctx.tenantId, ownerId, version, fileName(v.size)),
            v.data,
            v.contentType,
          ),
        ),
      );
      await this.storage.put(
        this.key(ctx.tenantId, ownerId, version, MANIFEST),
        Buffer.from(JSON.stringify(manifest)),
        'application/json',
      );
      switched = await this.switchTo(ctx, ownerId, () => version);
    } catch (err) {
      await this.removeVersion(ctx.tenantId, ownerId, version);
      throw err;
    }
    if (switched.previous) await this.removeVersion(ctx.tenantId, ownerId, switched.previous);
    return { ownerId, version, dateModified: switched.at, images: manifest.images };
  }

  /** The owner loses the image, then its files go; 404 when it has none. */
  async remove(ctx: RequestContext, path: string): Promise<FileDeleted> {
    const ownerId = path.toLowerCase();
    const { previous } = await this.switchTo(ctx, ownerId, (current) => {
      if (!current) throw this.none(ownerId);
      return null;
    });
    if (previous) await this.removeVersion(ctx.tenantId, ownerId, previous);
    return { id: ownerId, deleted: true };
  }

  /** One size's bytes; retried once when a replace removed the version just read. */
  async open(ctx: RequestContext, path: string, size: S): Promise<FileAnswer> {
    const ownerId = path.toLowerCase();
    for (let attempt = 0; attempt < 2; attempt++) {
      const { version } = await this.current(ctx, ownerId);
      if (!version) break;
      const file = await this.storage.get(this.key(ctx.tenantId, ownerId, version, fileName(size)));
      if (file) return { file, cacheControl: 'private, no-cache' };
    }
    throw this.none(ownerId);
  }

  /**
   * The owner's column from what it is to `next(current)`, with the owner locked until the
   * commit; answers the version replaced (valid versions only). `next` may throw to refuse.
   */
  private switchTo(
    ctx: RequestContext,
    ownerId: string,
    next: (current: string | null) => string | null,
  ): Promise<{ previous: string | null; at: Date }> {
    return this.store.transaction(async (tx) => {
      // A malformed id names no owner (and would reach PostgreSQL as a uuid): the same 404.
      if (!isUuid(ownerId) || !(await this.store.lock(tx, ctx.tenantId, ownerId))) {
        throw this.rules.ownerNotFound(ctx, ownerId);
      }
      const state = await this.store.state(ctx.tenantId, ownerId, tx);
      if (!state) throw this.rules.ownerNotFound(ctx, ownerId);
      const previous = validVersion(state.version);
      const at = await this.store.set(tx, ctx.tenantId, ownerId, next(previous), actorOf(ctx));
      return { previous, at };
    });
  }

  /** Best effort: a failure leaves unreachable bytes (logged), never a broken row. */
  private async removeVersion(tenantId: string, ownerId: string, version: string) {
    await this.storage
      .deletePrefix(this.rules.folder(tenantId, ownerId, version))
      .catch((err: Error) =>
        this.logger.warn(`could not remove image ${version} of ${ownerId}: ${err.message}`),
      );
  }
}
