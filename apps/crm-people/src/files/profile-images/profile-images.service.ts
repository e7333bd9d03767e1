import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage, ReceivedFile } from '@crm/storage';
import type { FileAnswer } from '@crm/storage';
import { DeletedFile } from '../documents/dto/person-document.dto';
import { profileImageFolder, profileImageKey } from '../files.storage';
import { ProfileImage } from './dto/profile-image.dto';
import { IMAGE_SIZES, ImageSize, renderVariants } from './image-variants';
import { ProfileImagesRepository } from './profile-images.repository';

/** Largest upload accepted (P17). */
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const MANIFEST = 'manifest.json';
const SWAP_ATTEMPTS = 5;

/** What is known of one version's files, kept next to them (the table has one text column). */
interface Manifest {
  version: string;
  images: { size: ImageSize; width: number; height: number; contentType: string; bytes: number }[];
}

const fileName = (size: ImageSize) => `${size}.webp`;
export const profileImageUrl = (personId: string, size: string) =>
  `/v1/crm/people/${personId}/profile-image/${size}`;

/** Profile images (P16-P19): sizes derived on upload, stored per version, swapped atomically. */
@Injectable()
export class ProfileImagesService {
  private readonly logger = new Logger('ProfileImages');

  constructor(
    private readonly repo: ProfileImagesRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** The current version of the tenant's person; 404 when there is no such person. */
  private async currentVersion(ctx: RequestContext, personId: string): Promise<string | null> {
    if (!isUuid(personId)) throw AppException.notFound('Person', personId);
    const row = await this.repo.current(ctx.tenantId, personId);
    if (!row) throw AppException.notFound('Person', personId);
    // Only versions this service wrote name a folder; anything else counts as no image.
    return row.profileImage && isUuid(row.profileImage) ? row.profileImage : null;
  }

  private static noImage(personId: string) {
    return new AppException(ErrorCode.NOT_FOUND, 'files.profileImage.none', { id: personId });
  }

  private toImages(personId: string, manifest: Manifest): ProfileImage[] {
    return manifest.images.map((i) => ({
      size: i.size,
      width: i.width,
      height: i.height,
      contentType: i.contentType,
      bytes: i.bytes,
      url: profileImageUrl(personId, i.size),
    }));
  }

  async list(ctx: RequestContext, personId: string): Promise<ProfileImage[]> {
    const version = await this.currentVersion(ctx, personId);
    if (!version) return [];
    const file = await this.storage.get(profileImageKey(ctx.tenantId, personId, version, MANIFEST));
    if (!file) {
      this.logger.error(`profile image ${version} of ${personId} has no manifest`);
      return [];
    }
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    return this.toImages(personId, JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest);
  }

  /**
   * P17: renders every size, stores them under a new version, then points the person at it. The
   * old version's files go only after the switch, so a reader never meets a missing image; the
   * new files go again if the switch fails.
   */
  async upload(
    ctx: RequestContext,
    personId: string,
    file: ReceivedFile | undefined,
  ): Promise<ProfileImage[]> {
    await this.currentVersion(ctx, personId);
    if (!file) throw AppException.invalidField('file', 'isDefined');
    if (!file.size) throw AppException.invalidField('file', 'isNotEmpty');
    const variants = await renderVariants(file.buffer);

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
    let previous: string | null;
    try {
      await Promise.all(
        variants.map((v) =>
          this.storage.put(
            profileImageKey(ctx.tenantId, personId, version, fileName(v.size)),
            v.data,
            v.contentType,
          ),
        ),
      );
      await this.storage.put(
        profileImageKey(ctx.tenantId, personId, version, MANIFEST),
        Buffer.from(JSON.stringify(manifest)),
        'application/json',
      );
      previous = await this.switchTo(ctx, personId, () => version);
    } catch (err) {
      await this.removeVersion(ctx.tenantId, personId, version);
      throw err;
    }
    if (previous) await this.removeVersion(ctx.tenantId, personId, previous);
    return this.toImages(personId, manifest);
  }

  /** P18: the person loses the image, then its files go. */
  async remove(ctx: RequestContext, personId: string): Promise<DeletedFile> {
    const previous = await this.switchTo(ctx, personId, (current) => {
      if (!current) throw ProfileImagesService.noImage(personId);
      return null;
    });
    if (previous) await this.removeVersion(ctx.tenantId, personId, previous);
    return { id: personId, deleted: true };
  }

  /** P19: one size's bytes; retried once when a replace removed the version just read. */
  async open(ctx: RequestContext, personId: string, size: string): Promise<FileAnswer> {
    if (!(IMAGE_SIZES as readonly string[]).includes(size)) {
      throw new AppException(ErrorCode.NOT_FOUND, 'files.profileImage.unknownSize', {
        size,
        sizes: IMAGE_SIZES.join(', '),
      });
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const version = await this.currentVersion(ctx, personId);
      if (!version) break;
      const key = profileImageKey(ctx.tenantId, personId, version, fileName(size as ImageSize));
      const file = await this.storage.get(key);
      if (file) return { file, cacheControl: 'private, no-cache' };
    }
    throw ProfileImagesService.noImage(personId);
  }

  /**
   * Compare-and-set of Person.profileImage from what it is to `next(current)`; returns the
   * version replaced (valid versions only). `next` may throw to refuse the change.
   */
  private async switchTo(
    ctx: RequestContext,
    personId: string,
    next: (current: string | null) => string | null,
  ): Promise<string | null> {
    // A malformed id names no person (and would reach PostgreSQL as a uuid): the same 404.
    if (!isUuid(personId)) throw AppException.notFound('Person', personId);
    const by = { name: ctx.integrationName, userId: ctx.callerId };
    for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt++) {
      const row = await this.repo.current(ctx.tenantId, personId);
      if (!row) throw AppException.notFound('Person', personId);
      const current = row.profileImage;
      const valid = current && isUuid(current) ? current : null;
      if (await this.repo.swap(ctx.tenantId, personId, current, next(valid), by)) return valid;
    }
    throw new AppException(ErrorCode.CONFLICT, 'files.profileImage.busy');
  }

  private async removeVersion(tenantId: string, personId: string, version: string) {
    await this.storage
      .deletePrefix(profileImageFolder(tenantId, personId, version))
      .catch((err: Error) =>
        this.logger.warn(
          `could not remove profile image ${version} of ${personId}: ${err.message}`,
        ),
      );
  }
}
