import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { AppException, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { EventsConfig } from '../../config';
import { PrismaService } from '../../database/prisma.service';
import { EVENT_INCLUDE, EventRecord } from '../events.repository';
import { EventsService } from '../events.service';
import { eventsCalendar } from './event-ical';

/** Most events one feed lists (the soonest first): a feed is never unbounded. */
export const FEED_MAX_EVENTS = 1000;

/** The page of an event on a website (*ours*): `<website url>/events/<eventId>`. */
export const eventPageUrl = (websiteUrl: string, eventId: string) =>
  `${websiteUrl.replace(/\/+$/, '')}/events/${eventId}`;

export interface IcalFile {
  text: string;
  etag: string;
}

/** E8 and W16: events as iCalendar. */
@Injectable()
export class EventsIcalService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: EventsService,
    private readonly i18n: I18nService,
    @Inject(SERVICE_CONFIG) private readonly config: EventsConfig,
  ) {}

  private file(text: string): IcalFile {
    return {
      text,
      etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`,
    };
  }

  /** E8: one event (any status, published or not: the caller holds an API key). */
  async event(ctx: RequestContext, id: string): Promise<IcalFile> {
    const r = await this.events.record(ctx, id);
    const site = await this.prisma.website.findFirst({
      where: { tenantId: ctx.tenantId, published: true, events: { some: { eventId: r.id } } },
      orderBy: { dateCreated: 'asc' },
      select: { url: true },
    });
    return this.file(
      eventsCalendar([r], {
        uidHost: this.config.ICAL_UID_HOST,
        name: r.title,
        urlOf: () => (site ? eventPageUrl(site.url, r.id) : null),
      }),
    );
  }

  /**
   * W16 (public): the published events of a published website of the tenant that end at most
   * ICAL_FEED_PAST_DAYS days ago or later, soonest first, at most FEED_MAX_EVENTS. Unknown,
   * unpublished or another tenant's website: 404.
   */
  async websiteFeed(ctx: RequestContext, websiteId: string): Promise<IcalFile> {
    const site = isUuid(websiteId)
      ? await this.prisma.website.findFirst({
          where: { id: websiteId.toLowerCase(), tenantId: ctx.tenantId, published: true },
          select: { id: true, name: true, url: true },
        })
      : null;
    if (!site) {
      const resource = this.i18n.t('events.resource.website', { lang: ctx.language }) as string;
      throw AppException.notFound(resource, websiteId);
    }
    const since = new Date(Date.now() - this.config.ICAL_FEED_PAST_DAYS * 86_400_000);
    const records: EventRecord[] = await this.prisma.event.findMany({
      where: {
        tenantId: ctx.tenantId,
        published: true,
        websites: { some: { websiteId: site.id } },
        OR: [{ endsAt: { gte: since } }, { endsAt: null, startsAt: { gte: since } }],
      },
      include: EVENT_INCLUDE,
      relationLoadStrategy: 'join',
      orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
      take: FEED_MAX_EVENTS,
    });
    return this.file(
      eventsCalendar(records, {
        uidHost: this.config.ICAL_UID_HOST,
        name: site.name,
        urlOf: (r) => eventPageUrl(site.url, r.id),
        hideMeetingUrl: true,
      }),
    );
  }

  get cacheMaxAge(): number {
    return this.config.PUBLIC_CACHE_MAX_AGE_S;
  }
}
