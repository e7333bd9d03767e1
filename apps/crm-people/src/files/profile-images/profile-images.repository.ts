import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';

/** Person.profileImage: the version of the current image (a folder in the FileStorage). */
@Injectable()
export class ProfileImagesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** null when the tenant has no such person. */
  current(tenantId: string, personId: string): Promise<{ profileImage: string | null } | null> {
    return this.prisma.person.findFirst({
      where: { tenantId, id: personId },
      select: { profileImage: true },
    });
  }

  /**
   * Compare-and-set: moves the person from `expected` to `next` only if nobody changed it
   * meanwhile, so two concurrent uploads cannot both believe they replaced the same image (the
   * loser's files would be orphaned otherwise). True when the row was updated.
   */
  async swap(
    tenantId: string,
    personId: string,
    expected: string | null,
    next: string | null,
    by: { name: string; userId: string | null },
  ): Promise<boolean> {
    const { count } = await this.prisma.person.updateMany({
      where: { tenantId, id: personId, profileImage: expected },
      data: { profileImage: next, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
    return count === 1;
  }
}
