import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import {
  createPgAdapter,
  type MeteredPool,
  poolOfAdapter,
  TRANSACTION_DEFAULTS,
} from '@crm/persistence';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { PrismaClient } from '../generated/prisma/client';
import type { TenantInfoConfig } from '../config';

/** The service's only door to its database (tenant_info). */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  /** The client's pool: keyed POSTs run in one transaction on it (IdempotentRequests). */
  readonly pool: MeteredPool;

  constructor(@Inject(SERVICE_CONFIG) config: TenantInfoConfig, metrics: AppMetrics) {
    // its pool's connections and waiting queries are exported on /metrics (db_pool_*)
    const adapter = createPgAdapter(config.DATABASE_URL, config.DATABASE_POOL_SIZE, metrics);
    super({ adapter, transactionOptions: TRANSACTION_DEFAULTS });
    this.pool = poolOfAdapter(adapter);
  }

  // After the HTTP server has closed (Nest closes it between the destroy and the shutdown hooks),
  // so requests still in flight at a shutdown finish against an open pool.
  async onApplicationShutdown() {
    await this.$disconnect();
  }
}
