import { WebhookMetrics } from './webhook-metrics';
import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@crm/secrets';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookFanout } from './webhook-fanout.service';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookWorker } from './webhook-worker.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksResolver } from './webhooks.resolver';

/**
 * Outgoing webhooks of the tenant (I1-I6): endpoints, the fan-out of the platform's outbox
 * events into messages and deliveries, and the delivery worker. Endpoint secrets are stored
 * sealed (WebhookSecrets).
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    secretBoxProvider,
    WebhooksRepository,
    WebhookSecrets,
    WebhookMetrics,
    WebhookEndpointsService,
    WebhookDeliveriesService,
    WebhookFanout,
    WebhookWorker,
    WebhooksResolver,
  ],
  exports: [WebhookFanout],
})
export class WebhooksModule {}
