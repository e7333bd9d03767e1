import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppException, isUuid } from '@crm/errors';
import { Actor, actorOf, InTurn } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { FileStorage, ReceivedFile, renderVariants, sanitizeFileName } from '@crm/storage';
import type { FileAnswer, ImageRendering } from '@crm/storage';
import type { FileDeleted } from '../documents/document-files';
import { copyImageFiles, IMAGE_MANIFEST } from './copy-image-files';
import type { StoredImageSize } from './image-files';
import type { GalleryRow, GalleryStore } from './gallery-store';

/** Most images of one owner by default. */
export const DEFAULT_GALLERY_MAX_IMAGES = 50;

const MANIFEST = IMAGE_MANIFEST;
const fileName = (size: string) => `${size}.webp`;

/** One image of a gallery with its sizes, as the manifest beside its files lists them. */
export interface GalleryImage<S extends string> {
  id: string;
  ownerId: string;
  fileName: string | null;
  position: number;
  createdBy: string | null;
  dateCreated: Date;
  images: StoredImageSize<S>[];
}

interface Manifest<S extends string> {
  id: string;
  images: StoredImageSize<S>[];
}

/** What a service says about its gallery besides the table access. */
export interface ImageGalleryRules<S extends string> {
  /** Logger name, e.g. `EventImages`. */
  name: string;
  /** The sizes derived on upload (@crm/storage: WebP, upright, without metadata). */
  rendering: ImageRendering<S>;
  /** The folder of one image: its sizes and manifest.json, built with `storageKey`. */
  folder(tenantId: string, ownerId: string, imageId: string): string;
  /** The 404 of an owner the tenant does not have. */
  ownerNotFound(ctx: RequestContext, ownerId: string): AppException;
  /** The 404 of an image the owner does not have. */
  imageNotFound(ctx: RequestContext, imageId: string): AppException;
  /** Most images per owner (DEFAULT_GALLERY_MAX_IMAGES); one more is a 409. */
  maxImages?: number;
}

/**
 * Several images of one owner (an event's or a website's gallery), each with derived sizes: the
 * same rules as ImageFiles. Every size is rendered on upload and stored, with a manifest, in the
 * image's own folder before its row is inserted in a transaction that locks the owner's row
 * (so the limit holds under concurrent uploads, and an owner deleted meanwhile stores nothing);
 * the folder goes when the row cannot be written. A delete removes the row, then the folder after
 * the commit: a reader never meets a row without its files. Owner ids are taken in lower case.
 */
export class ImageGallery<S extends string, Tx> {
  protected readonly logger: Logger;
  readonly maxImages: number;
  /**
   * This process's writes of one owner's gallery, one at a time: a burst of uploads to one owner
   * waits here, not in transactions holding pooled connections while they wait for the owner's
   * row lock (InTurn). The lock still orders the processes.
   */
  private readonly turns = new InTurn();

  constructor(
    protected readonly storage: FileStorage,
    protected readonly store: GalleryStore<Tx>,
    protected readonly rules: ImageGalleryRules<S>,
  ) {
    this.logger = new Logger(rules.name);
    this.maxImages = rules.maxImages ?? DEFAULT_GALLERY_MAX_IMAGES;
  }

  /** Whether `v` is one of the sizes (a route checks it and answers its own error). */
  isSize(v: string): v is S {
    return (this.rules.rendering.sizes as readonly string[]).includes(v);
  }

  private async requireOwner(ctx: RequestContext, ownerId: string): Promise<void> {
    if (!isUuid(ownerId) || !(await this.store.ownerExists(ctx.tenantId, ownerId))) {
      throw this.rules.ownerNotFound(ctx, ownerId);
    }
  }

  private async manifest(row: GalleryRow): Promise<StoredImageSize<S>[]> {
    const file = await this.storage.get(`${row.storageKey}/${MANIFEST}`);
    if (!file) {
      this.logger.error(`image ${row.id} has no manifest`);
      return [];
    }
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    return (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest<S>).images;
  }

  private async withSizes(ownerId: string, row: GalleryRow): Promise<GalleryImage<S>> {
    return {
      id: row.id,
      ownerId,
      fileName: row.fileName,
      position: row.position,
      createdBy: row.createdBy,
      dateCreated: row.dateCreated,
      images: await this.manifest(row),
    };
  }

  /** The owner's images in gallery order (one query; manifests read side by side). */
  async list(ctx: RequestContext, path: string): Promise<GalleryImage<S>[]> {
    const ownerId = path.toLowerCase();
    await this.requireOwner(ctx, ownerId);
    return this.listOfKnownOwner(ctx.tenantId, ownerId);
  }

  /**
   * The images of an owner the caller has just read itself (a public read that found the
   * published event): the same answer as `list` without asking again whether the owner exists.
   */
  async listOfKnownOwner(tenantId: string, ownerId: string): Promise<GalleryImage<S>[]> {
    const owner = ownerId.toLowerCase();
    const rows = await this.store.list(tenantId, owner);
    return Promise.all(rows.map((r) => this.withSizes(owner, r)));
  }

  private async row(ctx: RequestContext, ownerId: string, imageId: string): Promise<GalleryRow> {
    await this.requireOwner(ctx, ownerId);
    const row = isUuid(imageId)
      ? await this.store.find(ctx.tenantId, ownerId, imageId.toLowerCase())
      : null;
    if (!row) throw this.rules.imageNotFound(ctx, imageId);
    return row;
  }

  /** One image with its sizes. */
  async describe(ctx: RequestContext, path: string, imageId: string): Promise<GalleryImage<S>> {
    const ownerId = path.toLowerCase();
    return this.withSizes(ownerId, await this.row(ctx, ownerId, imageId));
  }

  /** One size's bytes. */
  async open(ctx: RequestContext, path: string, imageId: string, size: S): Promise<FileAnswer> {
    const row = await this.row(ctx, path.toLowerCase(), imageId);
    const file = await this.storage.get(`${row.storageKey}/${fileName(size)}`);
    if (!file) throw this.rules.imageNotFound(ctx, imageId);
    return { file, cacheControl: 'private, no-cache' };
  }

  private full(): AppException {
    return AppException.conflictOn('file', 'galleryFull', 'files.gallery.full', {
      max: this.maxImages,
    });
  }

  /** Renders every size, stores them in a new folder, then inserts the row (appended last). */
  async upload(
    ctx: RequestContext,
    path: string,
    file: ReceivedFile | undefined,
  ): Promise<GalleryImage<S>> {
    const ownerId = path.toLowerCase();
    await this.requireOwner(ctx, ownerId);
    if (!file) throw AppException.invalidField('file', 'isDefined');
    if (!file.size) throw AppException.invalidField('file', 'isNotEmpty');
    // Checked before rendering too, so a full gallery costs no image work (again under the lock).
    if ((await this.store.list(ctx.tenantId, ownerId)).length >= this.maxImages) throw this.full();
    const variants = await renderVariants(file.buffer, this.rules.rendering);
    const id = randomUUID();
    const folder = this.rules.folder(ctx.tenantId, ownerId, id);
    const manifest: Manifest<S> = {
      id,
      images: variants.map((v) => ({
        size: v.size,
        width: v.width,
        height: v.height,
        contentType: v.contentType,
        bytes: v.data.length,
      })),
    };
    try {
      await Promise.all(
        variants.map((v) =>
          this.storage.put(`${folder}/${fileName(v.size)}`, v.data, v.contentType),
        ),
      );
      await this.storage.put(
        `${folder}/${MANIFEST}`,
        Buffer.from(JSON.stringify(manifest)),
        'application/json',
      );
      const row = await this.locked(ctx.tenantId, ownerId, async (tx) => {
        if (!(await this.store.lock(tx, ctx.tenantId, ownerId)))
          throw this.rules.ownerNotFound(ctx, ownerId);
        const rows = await this.store.list(ctx.tenantId, ownerId, tx);
        if (rows.length >= this.maxImages) throw this.full();
        return this.store.insert(tx, {
          id,
          tenantId: ctx.tenantId,
          ownerId,
          storageKey: folder,
          fileName: sanitizeFileName(file.originalname, 'image'),
          position: Math.max(-1, ...rows.map((r) => r.position)) + 1,
          createdBy: actorOf(ctx),
        });
      });
      return { ...(await this.withSizes(ownerId, row)), images: manifest.images };
    } catch (err) {
      await this.removeFolder(folder);
      throw err;
    }
  }

  /** A transaction that changes the owner's gallery, after this process's earlier ones (turns). */
  private locked<T>(tenantId: string, ownerId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.turns.run(`${tenantId}/${ownerId}`, () => this.store.transaction(fn));
  }

  /** The row goes in a transaction that locks the owner, the files after the commit. */
  async remove(ctx: RequestContext, path: string, imageId: string): Promise<FileDeleted> {
    const ownerId = path.toLowerCase();
    const id = imageId.toLowerCase();
    if (!isUuid(ownerId)) throw this.rules.ownerNotFound(ctx, ownerId);
    const row = await this.locked(ctx.tenantId, ownerId, async (tx) => {
      if (!(await this.store.lock(tx, ctx.tenantId, ownerId))) {
        throw this.rules.ownerNotFound(ctx, ownerId);
      }
      const found = isUuid(id) ? await this.store.find(ctx.tenantId, ownerId, id, tx) : null;
      if (!found || !(await this.store.delete(tx, ctx.tenantId, ownerId, id))) {
        throw this.rules.imageNotFound(ctx, imageId);
      }
      return found;
    });
    await this.removeFolder(row.storageKey);
    return { id, deleted: true };
  }

  /**
   * Copies every image of `fromOwner` to `toOwner` (a duplicated event): the files into new
   * folders, then the rows in `tx` (the caller's transaction, which should lock `toOwner`).
   * Answers the new folders: the caller removes them when its transaction fails.
   */
  async copyAll(
    tx: Tx,
    tenantId: string,
    fromOwner: string,
    toOwner: string,
    by: Actor,
  ): Promise<{ copied: number; folders: string[] }> {
    const rows = await this.store.list(tenantId, fromOwner.toLowerCase(), tx);
    const folders: string[] = [];
    try {
      for (const row of rows) {
        const id = randomUUID();
        const folder = this.rules.folder(tenantId, toOwner.toLowerCase(), id);
        folders.push(folder);
        const sizes = await this.manifest(row);
        await copyImageFiles(
          this.storage,
          row.storageKey,
          folder,
          sizes.map((s) => fileName(s.size)),
          () => ({ id, images: sizes }),
        );
        await this.store.insert(tx, {
          id,
          tenantId,
          ownerId: toOwner.toLowerCase(),
          storageKey: folder,
          fileName: row.fileName,
          position: row.position,
          createdBy: by,
        });
      }
    } catch (err) {
      await Promise.all(folders.map((f) => this.removeFolder(f)));
      throw err;
    }
    return { copied: rows.length, folders };
  }

  /** Best effort: a failure leaves unreachable bytes (logged), never a broken row. */
  async removeFolder(folder: string): Promise<void> {
    await this.storage
      .deletePrefix(folder)
      .catch((err: Error) =>
        this.logger.warn(`could not remove image folder ${folder}: ${err.message}`),
      );
  }
}
