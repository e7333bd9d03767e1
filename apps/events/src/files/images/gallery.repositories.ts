import { Injectable } from '@nestjs/common';
import type { GalleryRow, GalleryStore, NewGalleryRow } from '@crm/files';
import { PrismaService } from '../../database/prisma.service';
import type { Tx } from '../../database/tx';

const ROW = {
  id: true,
  storageKey: true,
  fileName: true,
  position: true,
  createdBy: true,
  dateCreated: true,
} as const;
const IN_ORDER = [
  { position: 'asc' as const },
  { dateCreated: 'asc' as const },
  { id: 'asc' as const },
];

/** EventImage rows for @crm/files' ImageGallery; scoped to the tenant and the event. */
@Injectable()
export class EventImagesRepository implements GalleryStore<Tx> {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  ownerExists(tenantId: string, eventId: string, db: Tx = this.prisma): Promise<boolean> {
    return db.event.count({ where: { tenantId, id: eventId } }).then((n) => n > 0);
  }

  async lock(tx: Tx, tenantId: string, eventId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM "Event" WHERE "tenantId" = ${tenantId} AND "id" = ${eventId}::uuid FOR UPDATE`;
    return rows.length > 0;
  }

  list(tenantId: string, eventId: string, db: Tx = this.prisma): Promise<GalleryRow[]> {
    return db.eventImage.findMany({ where: { tenantId, eventId }, select: ROW, orderBy: IN_ORDER });
  }

  find(
    tenantId: string,
    eventId: string,
    id: string,
    db: Tx = this.prisma,
  ): Promise<GalleryRow | null> {
    return db.eventImage.findFirst({ where: { tenantId, eventId, id }, select: ROW });
  }

  insert(tx: Tx, { ownerId, createdBy, ...row }: NewGalleryRow): Promise<GalleryRow> {
    return tx.eventImage.create({
      data: { ...row, eventId: ownerId, createdBy: createdBy.name },
      select: ROW,
    });
  }

  async delete(tx: Tx, tenantId: string, eventId: string, id: string): Promise<boolean> {
    return (await tx.eventImage.deleteMany({ where: { tenantId, eventId, id } })).count > 0;
  }
}

/** WebsiteImage rows for @crm/files' ImageGallery; scoped to the tenant and the website. */
@Injectable()
export class WebsiteImagesRepository implements GalleryStore<Tx> {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  ownerExists(tenantId: string, websiteId: string, db: Tx = this.prisma): Promise<boolean> {
    return db.website.count({ where: { tenantId, id: websiteId } }).then((n) => n > 0);
  }

  async lock(tx: Tx, tenantId: string, websiteId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM "Website" WHERE "tenantId" = ${tenantId} AND "id" = ${websiteId}::uuid FOR UPDATE`;
    return rows.length > 0;
  }

  list(tenantId: string, websiteId: string, db: Tx = this.prisma): Promise<GalleryRow[]> {
    return db.websiteImage.findMany({
      where: { tenantId, websiteId },
      select: ROW,
      orderBy: IN_ORDER,
    });
  }

  find(
    tenantId: string,
    websiteId: string,
    id: string,
    db: Tx = this.prisma,
  ): Promise<GalleryRow | null> {
    return db.websiteImage.findFirst({ where: { tenantId, websiteId, id }, select: ROW });
  }

  insert(tx: Tx, { ownerId, createdBy, ...row }: NewGalleryRow): Promise<GalleryRow> {
    return tx.websiteImage.create({
      data: { ...row, websiteId: ownerId, createdBy: createdBy.name },
      select: ROW,
    });
  }

  async delete(tx: Tx, tenantId: string, websiteId: string, id: string): Promise<boolean> {
    return (await tx.websiteImage.deleteMany({ where: { tenantId, websiteId, id } })).count > 0;
  }
}
