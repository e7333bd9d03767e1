import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';

/**
 * Reads of the public endpoints (W8-W10): every query is scoped to the tenant and to what is
 * published, so an unpublished event or website is never loaded at all.
 */
@Injectable()
export class WebsitesPublicRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** A published event on at least one published website of the tenant, with those websites. */
  publishedEvent(tenantId: string, id: string) {
    return this.prisma.event.findFirst({
      where: {
        tenantId,
        id,
        published: true,
        websites: { some: { website: { tenantId, published: true } } },
      },
      select: {
        id: true,
        title: true,
        subtitle: true,
        description: true,
        startsAt: true,
        endsAt: true,
        timeZone: true,
        venue: true,
        onlineMeeting: true,
        capacity: true,
        categoryId: true,
        contributors: true,
        contactPerson: true,
        status: true,
        publishedAt: true,
        bookingFormFieldSetId: true,
        websites: {
          where: { website: { tenantId, published: true } },
          select: { website: { select: { id: true, name: true, url: true } } },
          orderBy: { website: { name: 'asc' } },
        },
        tags: {
          where: { tenantId, entry: { list: 'PORTAL_TAGS' } },
          select: { entry: { select: { id: true, text: true, color: true, position: true } } },
        },
      },
      // the event, its websites and its portal tags in one SQL statement (a public hot path)
      relationLoadStrategy: 'join',
    });
  }

  /** A published website of the tenant by its url key. */
  publishedWebsite(tenantId: string, urlKey: string) {
    return this.prisma.website.findFirst({ where: { tenantId, urlKey, published: true } });
  }

  /** A published website of the tenant by id. */
  publishedWebsiteById(tenantId: string, id: string) {
    return this.prisma.website.findFirst({
      where: { tenantId, id, published: true },
      select: { id: true },
    });
  }
}
