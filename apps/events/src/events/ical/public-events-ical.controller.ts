import { Controller, Get, Headers, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { matchesEtag } from '@crm/storage';
import { EventsIcalService } from './events-ical.service';

/** W16: the public iCalendar feed of a website (no API key; the tenant header is required). */
@ApiTags('Websites (public)')
@Controller('websites/public')
export class PublicEventsIcalController {
  constructor(private readonly ical: EventsIcalService) {}

  @Get(':id/events.ics')
  @RawResponse()
  @ApiOperation({
    summary: 'W16 iCalendar feed of the published events of a website',
    description:
      "W16 (public, ours): RFC 5545 feed to subscribe to. Lists the published events of the published website that end at most ICAL_FEED_PAST_DAYS (30) days ago or later, soonest first, at most 1000; never an unpublished event, the note, the orga tags or an online meeting link (LOCATION `Online (<platform>)`). UID `<eventId>@<ICAL_UID_HOST>`, SEQUENCE grows with every change, times in the event zone with its VTIMEZONE. ETag and Cache-Control: public, max-age=PUBLIC_CACHE_MAX_AGE_S; If-None-Match answers 304. Unknown, unpublished or another tenant's website: 404.",
  })
  @ApiProduces('text/calendar')
  @ApiOkResponse({
    description: 'iCalendar (RFC 5545)',
    content: { 'text/calendar': { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'Unchanged since the ETag given in If-None-Match' })
  @ApiResponse({ status: 404, description: 'Not a published website of the tenant' })
  async feed(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    const file = await this.ical.websiteFeed(ctx, id);
    res.header('ETag', file.etag);
    res.header('Cache-Control', `public, max-age=${this.ical.cacheMaxAge}`);
    // the tenant header scopes the answer: a shared cache must not serve it to another tenant
    res.header('Vary', 'X-Service-TenantId');
    if (matchesEtag(ifNoneMatch, file.etag)) {
      res.status(304);
      return undefined;
    }
    return new StreamableFile(Buffer.from(file.text, 'utf8'), {
      type: 'text/calendar; charset=utf-8',
      disposition: 'inline; filename="events.ics"',
    });
  }
}
