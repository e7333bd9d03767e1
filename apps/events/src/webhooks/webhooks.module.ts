import { WebhookMetrics } from './webhook-metrics';
import { Module } from '@nestjs/common';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookFanout } from './webhook-fanout.service';
import { WebhookWorker } from './webhook-worker.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksResolver } from './webhooks.resolver';

/**
 * Outgoing webhooks of the tenant (I1-I6): endpoints, the fan-out of the platform's outbox
 * events into messages and deliveries, and the delivery worker.
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
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
