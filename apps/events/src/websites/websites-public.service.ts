import { Injectable } from '@nestjs/common';
import { AppException, ErrorCode, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { GalleryImage } from '@crm/files';
import type { FileAnswer } from '@crm/storage';
import { EventSettingsLookup } from '../event-settings/event-settings-lookup.service';
import type { GallerySize } from '../files/images/gallery-rendering';
import { EventImagesService, WebsiteImagesService } from '../files/images/gallery.services';
import type {
  PublicBookingForm,
  PublicContactPerson,
  PublicContributor,
  PublicEvent,
  PublicImage,
  PublicVenue,
  PublicWebsite,
} from './dto/website-public.output';
import { toWebsiteConfig } from './website.mapper';
import { lookupKey } from './website-url';
import { WebsitesPublicRepository } from './websites-public.repository';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The public endpoints W8-W10 (no API key; the tenant header scopes everything). Unknown,
 * unpublished, on no published website, another tenant's, malformed id: one and the same 404,
 * so nothing can be learnt by probing. Answers are built field by field from allow-lists.
 */
@Injectable()
export class WebsitesPublicService {
  constructor(
    private readonly repo: WebsitesPublicRepository,
    private readonly settings: EventSettingsLookup,
    private readonly eventImages: EventImagesService,
    private readonly websiteImages: WebsiteImagesService,
  ) {}

  notFound(): AppException {
    return new AppException(ErrorCode.NOT_FOUND, 'websites.public.notFound');
  }

  /** The published event row (also W9's gate): 404 unless public. */
  async publishedEventRow(ctx: RequestContext, eventId: string) {
    const row = isUuid(eventId)
      ? await this.repo.publishedEvent(ctx.tenantId, eventId.toLowerCase())
      : null;
    if (!row) throw this.notFound();
    return row;
  }

  /** W8 */
  async event(ctx: RequestContext, eventId: string): Promise<PublicEvent> {
    const row = await this.publishedEventRow(ctx, eventId);
    const contributors = (Array.isArray(row.contributors) ? row.contributors : [])
      .map(obj)
      .filter((c): c is Json => !!c && !!str(c.name));
    const entryIds = [row.categoryId, ...contributors.map((c) => str(c.roleId))].filter(
      (id): id is string => isUuid(id),
    );
    // System and tenant entries, translated, in one query (the settings engine's lookup).
    const texts = await this.settings.anyEntries(ctx.tenantId, new Set(entryIds), ctx.language);
    const entry = (id: string | null) => {
      const e = id ? texts.get(id) : undefined;
      return e ? { id: e.id, text: e.text } : null;
    };
    const meeting = obj(row.onlineMeeting);
    return {
      id: row.id,
      title: row.title,
      subtitle: row.subtitle,
      description: row.description,
      startsAt: row.startsAt?.toISOString() ?? null,
      endsAt: row.endsAt?.toISOString() ?? null,
      timeZone: row.timeZone,
      venue: venueOf(row.venue),
      onlineMeeting:
        meeting && str(meeting.platformId) ? { platformId: str(meeting.platformId)! } : null,
      capacity: row.capacity,
      category: entry(row.categoryId),
      contributors: contributors.map((c): PublicContributor => ({
        name: str(c.name)!,
        role: entry(str(c.roleId)),
      })),
      contactPerson: contactOf(row.contactPerson),
      portalTags: row.tags
        .map((t) => t.entry)
        .sort((a, b) => a.position - b.position || a.text.localeCompare(b.text))
        .map((e) => ({ id: e.id, text: e.text, color: e.color })),
      status: row.status,
      publishedAt: row.publishedAt?.toISOString() ?? null,
      images: publicImages(
        await this.eventImages.gallery.listOfKnownOwner(ctx.tenantId, row.id),
        `/v1/crm/websites/public/events/${row.id}/images`,
      ),
      websites: row.websites.map((w) => ({
        id: w.website.id,
        name: w.website.name,
        url: w.website.url,
      })),
    };
  }

  /** W9: the fields of the event's booking form field set (none set or gone: no fields). */
  async bookingForm(ctx: RequestContext, eventId: string): Promise<PublicBookingForm> {
    const row = await this.publishedEventRow(ctx, eventId);
    const fields = row.bookingFormFieldSetId
      ? ((await this.settings.bookingFormFields(ctx.tenantId, row.bookingFormFieldSetId)) ?? [])
      : [];
    return {
      eventId: row.id,
      fields: fields.map((f) => ({
        key: f.key,
        label: f.label,
        type: f.type,
        required: f.required,
        options: f.options ?? null,
      })),
    };
  }

  /** W10: a published website of the tenant whose url key matches (query, fragment ignored). */
  async config(ctx: RequestContext, url: string): Promise<PublicWebsite> {
    const key = lookupKey(url);
    const row = key ? await this.repo.publishedWebsite(ctx.tenantId, key) : null;
    if (!row) throw this.notFound();
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      description: row.description,
      language: row.language,
      config: toWebsiteConfig(row.config),
      images: publicImages(
        await this.websiteImages.gallery.listOfKnownOwner(ctx.tenantId, row.id),
        `/v1/crm/websites/public/${row.id}/images`,
      ),
    };
  }

  /** The bytes of an image of a public event (its gallery). */
  async eventImage(
    ctx: RequestContext,
    eventId: string,
    imageId: string,
    size: string,
  ): Promise<FileAnswer> {
    const row = await this.publishedEventRow(ctx, eventId);
    return this.openPublic(() => this.eventImages.open(ctx, row.id, imageId, size), size);
  }

  /** The bytes of an image of a published website (its gallery, e.g. the logo). */
  async websiteImage(
    ctx: RequestContext,
    websiteId: string,
    imageId: string,
    size: string,
  ): Promise<FileAnswer> {
    const row = isUuid(websiteId)
      ? await this.repo.publishedWebsiteById(ctx.tenantId, websiteId.toLowerCase())
      : null;
    if (!row) throw this.notFound();
    return this.openPublic(() => this.websiteImages.open(ctx, row.id, imageId, size), size);
  }

  /** An unknown image is the same 404 as everything hidden; an unknown size stays a 400. */
  private async openPublic(open: () => Promise<FileAnswer>, size: string): Promise<FileAnswer> {
    if (!this.eventImages.gallery.isSize(size)) return open();
    return open().catch((err: unknown) => {
      if (err instanceof AppException && err.code === ErrorCode.NOT_FOUND) throw this.notFound();
      throw err;
    });
  }
}

function venueOf(raw: unknown): PublicVenue | null {
  const v = obj(raw);
  if (!v) return null;
  return {
    name: str(v.name),
    street: str(v.street),
    zip: str(v.zip),
    city: str(v.city),
    country: str(v.country),
  };
}

function contactOf(raw: unknown): PublicContactPerson | null {
  const c = obj(raw);
  if (!c) return null;
  return {
    salutation: str(c.salutation),
    title: str(c.title),
    firstname: str(c.firstname),
    lastname: str(c.lastname),
    position: str(c.position),
    email: str(c.email),
    phone: str(c.phone),
  };
}

/** Public addresses of a gallery's sizes (no byte counts, no author, no file names). */
function publicImages(images: GalleryImage<GallerySize>[], base: string): PublicImage[] {
  return images.map((img) => ({
    id: img.id,
    sizes: img.images.map((s) => ({
      size: s.size,
      width: s.width,
      height: s.height,
      url: `${base}/${img.id}?size=${s.size}`,
    })),
  }));
}
