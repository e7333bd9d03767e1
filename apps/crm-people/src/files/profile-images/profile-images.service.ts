import { Inject, Injectable } from '@nestjs/common';
import { AppException, ErrorCode } from '@crm/errors';
import { DEFAULT_IMAGE_MAX_BYTES, ImageFiles, StoredImage } from '@crm/files';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import type { FileAnswer, ReceivedFile } from '@crm/storage';
import { DeletedFile } from '../documents/dto/person-document.dto';
import { profileImageFolder } from '../files.storage';
import { ProfileImage } from './dto/profile-image.dto';
import { IMAGE_SIZES, ImageSize, PROFILE_IMAGE_RENDERING } from './image-variants';
import { ProfileImagesRepository } from './profile-images.repository';
import type { Tx } from '../../database/tx';

/** Largest upload accepted (P17). */
export const PROFILE_IMAGE_MAX_BYTES = DEFAULT_IMAGE_MAX_BYTES;

export const profileImageUrl = (personId: string, size: string) =>
  `/v1/crm/people/${personId}/profile-image/${size}`;

const toImages = (image: StoredImage<ImageSize> | null): ProfileImage[] =>
  (image?.images ?? []).map((i) => ({ ...i, url: profileImageUrl(image!.ownerId, i.size) }));

/**
 * Profile images (P16-P19): @crm/files' ImageFiles on Person.profileImage, sizes as
 * PROFILE_IMAGE_RENDERING derives them; this service shapes the answers of the routes.
 */
@Injectable()
export class ProfileImagesService {
  private readonly images: ImageFiles<ImageSize, Tx>;

  constructor(repo: ProfileImagesRepository, @Inject(FILE_STORAGE) storage: FileStorage) {
    this.images = new ImageFiles(storage, repo, {
      name: 'ProfileImages',
      rendering: PROFILE_IMAGE_RENDERING,
      folder: profileImageFolder,
      ownerNotFound: (_ctx, personId) => AppException.notFound('Person', personId),
      noneMessage: 'files.profileImage.none',
    });
  }

  /** P16: every size with its address; empty when the person has no image. */
  async list(ctx: RequestContext, personId: string): Promise<ProfileImage[]> {
    return toImages(await this.images.describe(ctx, personId));
  }

  /** P17: replaces the image; answers the new sizes. */
  async upload(
    ctx: RequestContext,
    personId: string,
    file: ReceivedFile | undefined,
  ): Promise<ProfileImage[]> {
    return toImages(await this.images.upload(ctx, personId, file));
  }

  /** P18: the person loses the image, then its files go. */
  remove(ctx: RequestContext, personId: string): Promise<DeletedFile> {
    return this.images.remove(ctx, personId);
  }

  /** P19: one size's bytes; an unknown size is a 404 naming the sizes. */
  open(ctx: RequestContext, personId: string, size: string): Promise<FileAnswer> {
    if (!this.images.isSize(size)) {
      throw new AppException(ErrorCode.NOT_FOUND, 'files.profileImage.unknownSize', {
        size,
        sizes: IMAGE_SIZES.join(', '),
      });
    }
    return this.images.open(ctx, personId, size);
  }
}
