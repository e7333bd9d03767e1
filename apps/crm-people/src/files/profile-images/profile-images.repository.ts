import { Injectable } from '@nestjs/common';
import type { ImageState, ImageStore } from '@crm/files';
import type { Actor } from '@crm/persistence';
import { PrismaService } from '../../database/prisma.service';
import type { Tx } from '../../database/tx';

/** Person.profileImage for @crm/files: the version of the current image (a storage folder). */
@Injectable()
export class ProfileImagesRepository implements ImageStore<Tx> {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** null when the tenant has no such person; the person keeps no date of its image. */
  async state(
    tenantId: string,
    personId: string,
    db: Tx = this.prisma,
  ): Promise<ImageState | null> {
    const row = await db.person.findFirst({
      where: { tenantId, id: personId },
      select: { profileImage: true },
    });
    return row ? { version: row.profileImage, dateModified: null } : null;
  }

  async lock(tx: Tx, tenantId: string, personId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Person" WHERE id = ${personId}::uuid AND "tenantId" = ${tenantId} FOR UPDATE`;
    return rows.length > 0;
  }

  async set(
    tx: Tx,
    tenantId: string,
    personId: string,
    version: string | null,
    by: Actor,
  ): Promise<Date> {
    await tx.person.updateMany({
      where: { tenantId, id: personId },
      data: { profileImage: version, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
    return new Date();
  }
}
