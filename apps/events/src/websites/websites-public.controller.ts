import {
  Controller,
  Get,
  Headers,
  Inject,
  Param,
  Query,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RawResponse } from '@crm/envelope';
import { FileAnswer, sendStoredFile } from '@crm/storage';
import { GALLERY_SIZES } from '../files/images/gallery-rendering';
import type { FastifyReply } from 'fastify';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope, SERVICE_CONFIG } from '@crm/service-kit';
import type { EventsConfig } from '../config';
import { PublicConfigQuery } from './dto/website.input';
import { PublicBookingForm, PublicEvent, PublicWebsite } from './dto/website-public.output';
import { cachedPublic } from './public-cache';
import { WebsitesPublicService } from './websites-public.service';

const PUBLIC_DOC =
  '**public**: no API key; the tenant header X-Service-TenantId is required and scopes the ' +
  'answer. Cacheable: weak ETag, `Cache-Control: public, max-age=PUBLIC_CACHE_MAX_AGE_S`, ' +
  "`If-None-Match` -> 304. Unknown, unpublished or another tenant's: the same 404. Rate " +
  'limited per client address by the gateway (429, Retry-After).';

@ApiTags('Websites (public)')
@Controller('websites/public')
export class WebsitesPublicController {
  constructor(
    private readonly service: WebsitesPublicService,
    @Inject(SERVICE_CONFIG) private readonly settings: EventsConfig,
  ) {}

  @Get('events/:eventId')
  @ApiOperation({
    summary: 'W8 Get a published event',
    description: `W8 A published event on at least one published website of the tenant. No note, orga tags, authors, meeting link or unpublished websites. ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(PublicEvent)
  @ApiResponse({ status: 304, description: 'If-None-Match matches' })
  async event(
    @Ctx() ctx: RequestContext,
    @Param('eventId') eventId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<PublicEvent | undefined> {
    return cachedPublic(
      res,
      await this.service.event(ctx, eventId),
      ifNoneMatch,
      this.settings.PUBLIC_CACHE_MAX_AGE_S,
    );
  }

  @Get('events/:eventId/booking-form')
  @ApiOperation({
    summary: 'W9 The booking form field set an event uses',
    description: `W9 The fields (key, label, type, required, options) of the booking form field set of a published event on a published website; an event without one: no fields. ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(PublicBookingForm)
  @ApiResponse({ status: 304, description: 'If-None-Match matches' })
  async bookingForm(
    @Ctx() ctx: RequestContext,
    @Param('eventId') eventId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<PublicBookingForm | undefined> {
    return cachedPublic(
      res,
      await this.service.bookingForm(ctx, eventId),
      ifNoneMatch,
      this.settings.PUBLIC_CACHE_MAX_AGE_S,
    );
  }

  @Get('config')
  @ApiOperation({
    summary: 'W10 A portal config by url',
    description: `W10 The published website whose normalised url (scheme, www., default port, trailing slash, query and fragment ignored) is \`url\`. ${PUBLIC_DOC}`,
  })
  @ApiEnvelope(PublicWebsite)
  @ApiResponse({ status: 304, description: 'If-None-Match matches' })
  async config(
    @Ctx() ctx: RequestContext,
    @Query() query: PublicConfigQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<PublicWebsite | undefined> {
    return cachedPublic(
      res,
      await this.service.config(ctx, query.url),
      ifNoneMatch,
      this.settings.PUBLIC_CACHE_MAX_AGE_S,
    );
  }

  @Get('events/:eventId/images/:imageId')
  @RawResponse()
  @ApiOperation({
    summary: 'W8 The bytes of an image of a published event (ours)',
    description: `W8 (*ours*) One size of an image of the event's gallery, as W8 lists it: image/webp with a strong ETag. \`size\`: ${GALLERY_SIZES.join(', ')} (another: 400). ${PUBLIC_DOC}`,
  })
  @ApiQuery({ name: 'size', enum: GALLERY_SIZES, required: true })
  @ApiProduces('image/webp')
  @ApiResponse({ status: 200, description: 'The image' })
  async eventImage(
    @Ctx() ctx: RequestContext,
    @Param('eventId') eventId: string,
    @Param('imageId') imageId: string,
    @Query('size') size: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    return this.sendPublic(
      res,
      await this.service.eventImage(ctx, eventId, imageId, size ?? ''),
      ifNoneMatch,
    );
  }

  @Get(':websiteId/images/:imageId')
  @RawResponse()
  @ApiOperation({
    summary: 'W10 The bytes of an image of a published website (ours)',
    description: `W10 (*ours*) One size of an image of the website's gallery (its logo: config.logoImageId), as W10 lists it. \`size\`: ${GALLERY_SIZES.join(', ')} (another: 400). ${PUBLIC_DOC}`,
  })
  @ApiQuery({ name: 'size', enum: GALLERY_SIZES, required: true })
  @ApiProduces('image/webp')
  @ApiResponse({ status: 200, description: 'The image' })
  async websiteImage(
    @Ctx() ctx: RequestContext,
    @Param('websiteId') websiteId: string,
    @Param('imageId') imageId: string,
    @Query('size') size: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    return this.sendPublic(
      res,
      await this.service.websiteImage(ctx, websiteId, imageId, size ?? ''),
      ifNoneMatch,
    );
  }

  private sendPublic(res: FastifyReply, answer: FileAnswer, ifNoneMatch: string | undefined) {
    res.header('Vary', 'X-Service-TenantId');
    return sendStoredFile(
      res,
      { ...answer, cacheControl: `public, max-age=${this.settings.PUBLIC_CACHE_MAX_AGE_S}` },
      ifNoneMatch,
    );
  }
}
