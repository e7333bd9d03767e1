import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, isUuid } from '@crm/errors';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import type {
  ReplayWebhookDeliveriesInput,
  WebhookDeliveriesQuery,
} from './dto/webhook-endpoint.input';
import type {
  RedeliveredWebhook,
  ReplayedWebhookDeliveries,
  WebhookDelivery,
} from './dto/webhook-endpoint.output';
import { toDelivery } from './webhook.mapper';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { REPLAY_MAX } from './webhook-rules';
import { AttemptRow, DELIVERY_SORT_FIELDS, WebhooksRepository } from './webhooks.repository';

const byDelivery = (attempts: AttemptRow[]) => {
  const map = new Map<string, AttemptRow[]>();
  for (const a of attempts) map.set(a.deliveryId, [...(map.get(a.deliveryId) ?? []), a]);
  return map;
};

/**
 * The delivery log of an endpoint (I3) and sending again (I4, I5). Sending again queues the
 * delivery with a fresh run of retries; it keeps its id and its message, so the receiver gets
 * the same `webhook-id` and can drop what it has seen. It never enables a disabled endpoint.
 */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly endpoints: WebhookEndpointsService,
    private readonly i18n: I18nService,
  ) {}

  async list(
    ctx: RequestContext,
    endpointId: string,
    query: WebhookDeliveriesQuery,
  ): Promise<Paged<WebhookDelivery>> {
    const sort = parseSort(
      query.sort,
      DELIVERY_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'desc' }],
      'id',
    );
    await this.endpoints.require(ctx, endpointId);
    const [rows, total, attempts] = await this.repo.pageDeliveries(ctx.tenantId, endpointId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
      status: query.status,
    });
    const log = byDelivery(attempts);
    return paged(
      rows.map((r) => toDelivery(r, log.get(r.id) ?? [])),
      total,
    );
  }

  /** I4: the same delivery (id, webhook-id) queued again, whatever its status. */
  async redeliver(
    ctx: RequestContext,
    endpointId: string,
    deliveryId: string,
  ): Promise<RedeliveredWebhook> {
    const endpoint = await this.repo.transaction(async (tx) => {
      const found = await this.endpoints.require(ctx, endpointId, tx);
      const queued = isUuid(deliveryId)
        ? await this.repo.requeue(
            tx,
            { tenantId: ctx.tenantId, endpointId, id: deliveryId },
            new Date(),
          )
        : { count: 0 };
      if (!queued.count) {
        const resource = this.i18n.t('webhooks.resource.delivery', { lang: ctx.language });
        throw AppException.notFound(resource as string, deliveryId);
      }
      return found;
    });
    const row = (await this.repo.findDelivery(ctx.tenantId, endpointId, deliveryId))!;
    const attempts = await this.repo.latestAttempts(ctx.tenantId, [deliveryId]);
    return { delivery: toDelivery(row, attempts), endpointEnabled: endpoint.enabled };
  }

  /** I5: every delivery of the endpoint created since `since`, at most REPLAY_MAX. */
  async replay(
    ctx: RequestContext,
    endpointId: string,
    input: ReplayWebhookDeliveriesInput,
  ): Promise<ReplayedWebhookDeliveries> {
    const since = new Date(input.since);
    return this.repo.transaction(async (tx) => {
      const endpoint = await this.endpoints.require(ctx, endpointId, tx);
      const where = { tenantId: ctx.tenantId, endpointId, dateCreated: { gte: since } };
      const count = await this.repo.countDeliveries(tx, where);
      if (count > REPLAY_MAX) {
        throw AppException.validation([
          {
            field: 'since',
            rule: 'replayTooMany',
            args: { count, max: REPLAY_MAX },
            messageKey: 'webhooks.problems.replayTooMany',
          },
        ]);
      }
      const queued = count ? (await this.repo.requeue(tx, where, new Date())).count : 0;
      return { queued, endpointEnabled: endpoint.enabled };
    });
  }
}
