import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  RegisterWebhookEndpointInput,
  ReplayWebhookDeliveriesInput,
  RotateWebhookSecretInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveriesQuery,
} from './dto/webhook-endpoint.input';
import {
  RedeliveredWebhook,
  RegisteredWebhookEndpoint,
  ReplayedWebhookDeliveries,
  RotatedWebhookSecret,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointRemoved,
} from './dto/webhook-endpoint.output';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { REPLAY_MAX } from './webhook-rules';

const DELIVERY =
  'Each delivery is a POST of `{ type, timestamp, data }` signed by the Standard Webhooks ' +
  'convention (headers webhook-id = the message id, the same on every retry and redelivery; ' +
  'webhook-timestamp; webhook-signature `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, two ' +
  'space-separated signatures while an old secret overlaps). 2xx succeeds; anything else ' +
  '(redirects are not followed, 10 s timeout) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, ' +
  '10 h, 14 h, 20 h and 24 h (±10 %), then the delivery is `failed`. 410 Gone disables the ' +
  'endpoint at once; an endpoint with no success for 3 days is disabled; disabledReason says why.';

@ApiTags('Integrations: webhooks')
@Controller('integrations/webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'I1 List the webhook endpoints',
    description: `I1 Paged; sort by dateCreated (default), dateModified, url, enabled. Secrets are never shown. ${DELIVERY}`,
  })
  @ApiEnvelope(WebhookEndpoint, 200, true)
  list(@Ctx() ctx: RequestContext, @Query() query: PageQuery): Promise<Paged<WebhookEndpoint>> {
    return this.endpoints.list(ctx, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'I1 Register a webhook endpoint',
    description:
      'I1 The answer holds the signing secret (whsec_...), shown this once. The URL must be ' +
      'https and resolve to public addresses only (checked again at every delivery). It gets ' +
      'what happens from its registration on: events that happened before (still being worked ' +
      'through after a burst) are not sent to it. At most 20 endpoints per tenant (409). ' +
      DELIVERY,
  })
  @ApiEnvelope(RegisteredWebhookEndpoint, 201)
  @ApiResponse({ status: 409, description: 'The tenant has the most endpoints it may have' })
  register(
    @Ctx() ctx: RequestContext,
    @Body() body: RegisterWebhookEndpointInput,
  ): Promise<RegisteredWebhookEndpoint> {
    return this.endpoints.register(ctx, body);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'I1 Read a webhook endpoint',
    description: 'I1 (ours) One endpoint, with why it is disabled. Unknown or foreign: 404.',
  })
  @ApiEnvelope(WebhookEndpoint)
  read(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<WebhookEndpoint> {
    return this.endpoints.read(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'I2 Update a webhook endpoint',
    description:
      'I2 Fields not given stay. `enabled: true` enables a disabled endpoint again and clears ' +
      'disabledReason, disabledAt and failingSince (its pending deliveries are then sent); ' +
      '`enabled: false` disables it. Unknown or foreign: 404.',
  })
  @ApiEnvelope(WebhookEndpoint)
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpoint> {
    return this.endpoints.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'I2 Remove a webhook endpoint',
    description: 'I2 Its deliveries and their log go with it. Unknown or foreign: 404.',
  })
  @ApiEnvelope(WebhookEndpointRemoved)
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<WebhookEndpointRemoved> {
    return this.endpoints.remove(ctx, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'I3 The delivery log of a webhook endpoint',
    description:
      'I3 Paged, newest first (sort by dateCreated, dateDelivered, nextAttemptAt, status, ' +
      'attempts); `status` filters (pending, succeeded, failed). Each delivery shows its last ' +
      'response code, duration and error and its latest 20 attempts.',
  })
  @ApiEnvelope(WebhookDelivery, 200, true)
  deliveriesOf(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: WebhookDeliveriesQuery,
  ): Promise<Paged<WebhookDelivery>> {
    return this.deliveries.list(ctx, id, query);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiOperation({
    summary: 'I4 Send one delivery again',
    description:
      'I4 (ours) Any delivery (pending, succeeded or failed) is queued again with a fresh run ' +
      'of retries; same delivery id, same webhook-id. A disabled endpoint stays disabled ' +
      '(endpointEnabled: false): the delivery waits until it is enabled.',
  })
  @ApiEnvelope(RedeliveredWebhook)
  redeliver(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<RedeliveredWebhook> {
    return this.deliveries.redeliver(ctx, id, deliveryId);
  }

  @Post(':id/replay')
  @HttpCode(200)
  @ApiOperation({
    summary: 'I5 Send again every delivery since a time',
    description: `I5 (ours) Every delivery of the endpoint created at or after \`since\` is queued again, as I4 does; at most ${REPLAY_MAX} (more: 400 naming since).`,
  })
  @ApiEnvelope(ReplayedWebhookDeliveries)
  replay(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: ReplayWebhookDeliveriesInput,
  ): Promise<ReplayedWebhookDeliveries> {
    return this.deliveries.replay(ctx, id, body);
  }

  @Post(':id/secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'I6 Rotate the signing secret',
    description:
      'I6 (ours) A new secret, shown this once. The old one still signs (a second signature ' +
      'in webhook-signature) for overlapMinutes (default 1440, at most 10080; 0: not at all).',
  })
  @ApiEnvelope(RotatedWebhookSecret)
  rotate(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: RotateWebhookSecretInput,
  ): Promise<RotatedWebhookSecret> {
    return this.endpoints.rotate(ctx, id, body);
  }
}
