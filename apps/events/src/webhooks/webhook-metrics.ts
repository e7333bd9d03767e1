import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import { acrossTenants } from '@crm/request-context';
import { WebhooksRepository } from './webhooks.repository';

/** Webhook deliveries as an operator watches them: waiting, retrying after failures, given up. */
@Injectable()
export class WebhookMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly webhooks: WebhooksRepository,
  ) {}

  onModuleInit(): void {
    // the operator's view: the deliveries of every tenant, counted together
    const counts = this.metrics.shared(() =>
      acrossTenants('webhook delivery gauges over every tenant', () =>
        this.webhooks.deliveryBacklog(),
      ),
    );
    this.metrics.gauge(
      'webhook_deliveries_pending',
      'Webhook deliveries not yet made (all tenants)',
      async () => (await counts()).pending,
    );
    this.metrics.gauge(
      'webhook_deliveries_retrying',
      'Pending webhook deliveries that failed at least once (their receiver is down or refuses)',
      async () => (await counts()).retrying,
    );
    this.metrics.gauge(
      'webhook_deliveries_failed',
      'Webhook deliveries given up after their attempts (all tenants)',
      async () => (await counts()).failed,
    );
  }
}
