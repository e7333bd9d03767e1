import {
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Envelope, envelope, RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  FILE_UPLOAD_BODY,
  ReceivedFile,
  UploadedFile,
  sendStoredFile,
  uploadInterceptor,
} from '@crm/storage';
import { EventsFileDeleted } from '../dto/file-deleted.output';
import { GalleryImageOutput } from './dto/gallery-image.output';
import { GALLERY_MAX_BYTES, GALLERY_MAX_IMAGES, GALLERY_SIZES } from './gallery-rendering';
import { EventImagesService, WebsiteImagesService } from './gallery.services';

const UPLOAD_DOC =
  'multipart/form-data, field `file`: a JPEG, PNG or WebP image (detected from the bytes; ' +
  'anything else 415), at most 5 MB (413) and 100 megapixels. Every size is derived as WebP, ' +
  'upright, without metadata: thumbnail (160 square), small (480), detail (1280), original ' +
  `(at most 2560). Appended to the gallery; at most ${GALLERY_MAX_IMAGES} images (one more: 409).`;
const READ_DOC =
  `Without \`size\`: the image's description (its sizes with addresses). With \`size\` ` +
  `(${GALLERY_SIZES.join(', ')}; another value: 400): the bytes, image/webp, ETag ` +
  '(If-None-Match -> 304), `Cache-Control: private, no-cache`.';

type ImageAnswer = Envelope<GalleryImageOutput> | StreamableFile | undefined;

@ApiTags('Event images')
@Controller('events/:id/images')
export class EventImagesController {
  constructor(private readonly images: EventImagesService) {}

  @Get()
  @ApiOperation({
    summary: 'E15 List the images of an event',
    description: 'E15 In gallery order. Unknown or foreign event: 404.',
  })
  @ApiEnvelope(GalleryImageOutput, 200, true)
  list(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<GalleryImageOutput[]> {
    return this.images.list(ctx, id);
  }

  @Post()
  @HttpCode(201)
  @UseInterceptors(uploadInterceptor({ maxBytes: GALLERY_MAX_BYTES }))
  @ApiOperation({
    summary: 'E15 Upload an image of an event',
    description: `E15 ${UPLOAD_DOC} Unknown or foreign event: 404.`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(GalleryImageOutput, 201)
  @ApiResponse({ status: 409, description: 'The gallery is full' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: ReceivedFile | undefined,
  ): Promise<GalleryImageOutput> {
    return this.images.upload(ctx, id, file);
  }

  @Get(':imageId')
  @RawResponse()
  @ApiOperation({
    summary: 'E16 Read an image of an event',
    description: `E16 ${READ_DOC} Unknown or foreign event or image: 404.`,
  })
  @ApiQuery({ name: 'size', enum: GALLERY_SIZES, required: false })
  @ApiEnvelope(GalleryImageOutput)
  async read(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('imageId') imageId: string,
    @Query('size') size: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ImageAnswer> {
    if (size === undefined) return envelope(await this.images.describe(ctx, id, imageId), 200);
    return sendStoredFile(res, await this.images.open(ctx, id, imageId, size), ifNoneMatch);
  }

  @Delete(':imageId')
  @ApiOperation({
    summary: 'E16 Delete an image of an event',
    description: 'E16 Its files go too. Unknown or foreign event or image: 404.',
  })
  @ApiEnvelope(EventsFileDeleted)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('imageId') imageId: string,
  ): Promise<EventsFileDeleted> {
    return this.images.remove(ctx, id, imageId);
  }
}

@ApiTags('Website images')
@Controller('websites/:id/images')
export class WebsiteImagesController {
  constructor(private readonly images: WebsiteImagesService) {}

  @Get()
  @ApiOperation({
    summary: 'W14 List the images of a website',
    description: 'W14 In gallery order. Unknown or foreign website: 404.',
  })
  @ApiEnvelope(GalleryImageOutput, 200, true)
  list(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<GalleryImageOutput[]> {
    return this.images.list(ctx, id);
  }

  @Post()
  @HttpCode(201)
  @UseInterceptors(uploadInterceptor({ maxBytes: GALLERY_MAX_BYTES }))
  @ApiOperation({
    summary: 'W14 Upload an image of a website',
    description: `W14 ${UPLOAD_DOC} The website's config.logoImageId may name one. Unknown or foreign website: 404.`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(GalleryImageOutput, 201)
  @ApiResponse({ status: 409, description: 'The gallery is full' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: ReceivedFile | undefined,
  ): Promise<GalleryImageOutput> {
    return this.images.upload(ctx, id, file);
  }

  @Get(':imageId')
  @RawResponse()
  @ApiOperation({
    summary: 'W15 Read an image of a website',
    description: `W15 ${READ_DOC} Unknown or foreign website or image: 404.`,
  })
  @ApiQuery({ name: 'size', enum: GALLERY_SIZES, required: false })
  @ApiEnvelope(GalleryImageOutput)
  async read(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('imageId') imageId: string,
    @Query('size') size: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ImageAnswer> {
    if (size === undefined) return envelope(await this.images.describe(ctx, id, imageId), 200);
    return sendStoredFile(res, await this.images.open(ctx, id, imageId, size), ifNoneMatch);
  }

  @Delete(':imageId')
  @ApiOperation({
    summary: 'W15 Delete an image of a website',
    description: 'W15 Its files go too. Unknown or foreign website or image: 404.',
  })
  @ApiEnvelope(EventsFileDeleted)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('imageId') imageId: string,
  ): Promise<EventsFileDeleted> {
    return this.images.remove(ctx, id, imageId);
  }
}
