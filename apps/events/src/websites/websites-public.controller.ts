import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
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
}
