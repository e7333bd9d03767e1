import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { createPgAdapter } from '@crm/persistence';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { PrismaClient } from '../generated/prisma/client';
import type { BookingsInvitationsConfig } from '../config';

/** The service's only door to its database (bookings_invitations). */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(SERVICE_CONFIG) config: BookingsInvitationsConfig) {
    super({ adapter: createPgAdapter(config.DATABASE_URL, config.DATABASE_POOL_SIZE) });
  }

  async onModuleDestroy() {
    await this.$disconnect();
  }
}
