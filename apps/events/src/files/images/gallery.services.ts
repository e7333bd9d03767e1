import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import { GalleryImage, ImageGallery } from '@crm/files';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileAnswer, FileStorage, ReceivedFile } from '@crm/storage';
import type { FileDeleted } from '@crm/files';
import { eventImageFolder, websiteImageFolder } from '../files.storage';
import type { GalleryImageOutput } from './dto/gallery-image.output';
import {
  GALLERY_MAX_IMAGES,
  GALLERY_RENDERING,
  GALLERY_SIZES,
  GallerySize,
} from './gallery-rendering';
import type { Tx } from '../../database/tx';
import { EventImagesRepository, WebsiteImagesRepository } from './gallery.repositories';

const notFound = (i18n: I18nService, key: string) => (ctx: RequestContext, id: string) =>
  AppException.notFound(i18n.t(key, { lang: ctx.language }) as string, id);

/** The routes of one kind of gallery over @crm/files' ImageGallery (E15, E16 / W14, W15). */
abstract class GalleryService {
  constructor(
    readonly gallery: ImageGallery<GallerySize, Tx>,
    private readonly base: string,
  ) {}

  protected toOutput(img: GalleryImage<GallerySize>): GalleryImageOutput {
    return {
      id: img.id,
      ownerId: img.ownerId,
      fileName: img.fileName,
      position: img.position,
      createdBy: img.createdBy,
      dateCreated: img.dateCreated.toISOString(),
      sizes: img.images.map((s) => ({
        ...s,
        url: `/v1/crm/${this.base}/${img.ownerId}/images/${img.id}?size=${s.size}`,
      })),
    };
  }

  async list(ctx: RequestContext, ownerId: string): Promise<GalleryImageOutput[]> {
    return (await this.gallery.list(ctx, ownerId)).map((i) => this.toOutput(i));
  }

  async upload(
    ctx: RequestContext,
    ownerId: string,
    file: ReceivedFile | undefined,
  ): Promise<GalleryImageOutput> {
    return this.toOutput(await this.gallery.upload(ctx, ownerId, file));
  }

  async describe(
    ctx: RequestContext,
    ownerId: string,
    imageId: string,
  ): Promise<GalleryImageOutput> {
    return this.toOutput(await this.gallery.describe(ctx, ownerId, imageId));
  }

  /** One size's bytes; an unknown size is a 400 naming the sizes. */
  open(ctx: RequestContext, ownerId: string, imageId: string, size: string): Promise<FileAnswer> {
    if (!this.gallery.isSize(size)) {
      throw AppException.invalidField('size', 'isIn', { constraint1: GALLERY_SIZES.join(', ') });
    }
    return this.gallery.open(ctx, ownerId, imageId, size);
  }

  remove(ctx: RequestContext, ownerId: string, imageId: string): Promise<FileDeleted> {
    return this.gallery.remove(ctx, ownerId, imageId);
  }
}

/** E15, E16: the images of an event. */
@Injectable()
export class EventImagesService extends GalleryService {
  constructor(
    repo: EventImagesRepository,
    i18n: I18nService,
    @Inject(FILE_STORAGE) storage: FileStorage,
  ) {
    super(
      new ImageGallery(storage, repo, {
        name: 'EventImages',
        rendering: GALLERY_RENDERING,
        folder: eventImageFolder,
        ownerNotFound: notFound(i18n, 'files.resource.event'),
        imageNotFound: notFound(i18n, 'files.resource.image'),
        maxImages: GALLERY_MAX_IMAGES,
      }),
      'events',
    );
  }
}

/** W14, W15: the images of a website. */
@Injectable()
export class WebsiteImagesService extends GalleryService {
  constructor(
    repo: WebsiteImagesRepository,
    i18n: I18nService,
    @Inject(FILE_STORAGE) storage: FileStorage,
  ) {
    super(
      new ImageGallery(storage, repo, {
        name: 'WebsiteImages',
        rendering: GALLERY_RENDERING,
        folder: websiteImageFolder,
        ownerNotFound: notFound(i18n, 'websites.resource.website'),
        imageNotFound: notFound(i18n, 'files.resource.image'),
        maxImages: GALLERY_MAX_IMAGES,
      }),
      'websites',
    );
  }
}
