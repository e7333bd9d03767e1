import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import {
  RegisterWebhookEndpointInput,
  ReplayWebhookDeliveriesInput,
  RotateWebhookSecretInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveriesArgs,
} from './dto/webhook-endpoint.input';
import {
  RedeliveredWebhook,
  RegisteredWebhookEndpoint,
  ReplayedWebhookDeliveries,
  RotatedWebhookSecret,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointPage,
  WebhookEndpointRemoved,
} from './dto/webhook-endpoint.output';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';

const id = (name: string) => Args(name, { type: () => ID });

/** I1-I6 over GraphQL: the same service methods; the secret only in register and rotate. */
@Resolver(() => WebhookEndpoint)
export class WebhooksResolver {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Query(() => WebhookEndpointPage, { description: 'I1 The webhook endpoints of the tenant' })
  async webhookEndpoints(@Ctx() ctx: RequestContext, @Args() query: PageQuery) {
    const page = await this.endpoints.list(ctx, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => WebhookEndpoint, { description: 'I1 One webhook endpoint' })
  webhookEndpoint(@Ctx() ctx: RequestContext, @id('id') endpointId: string) {
    return this.endpoints.read(ctx, endpointId);
  }

  @Query(() => WebhookDeliveryPage, { description: 'I3 The delivery log of an endpoint' })
  async webhookDeliveries(@Ctx() ctx: RequestContext, @Args() args: WebhookDeliveriesArgs) {
    const { endpointId, ...query } = args;
    const page = await this.deliveries.list(ctx, endpointId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => RegisteredWebhookEndpoint, { description: 'I1 Register a webhook endpoint' })
  registerWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Args('input') input: RegisterWebhookEndpointInput,
  ) {
    return this.endpoints.register(ctx, input);
  }

  @Mutation(() => WebhookEndpoint, { description: 'I2 Update a webhook endpoint' })
  updateWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @id('id') endpointId: string,
    @Args('input') input: UpdateWebhookEndpointInput,
  ) {
    return this.endpoints.update(ctx, endpointId, input);
  }

  @Mutation(() => WebhookEndpointRemoved, { description: 'I2 Remove a webhook endpoint' })
  removeWebhookEndpoint(@Ctx() ctx: RequestContext, @id('id') endpointId: string) {
    return this.endpoints.remove(ctx, endpointId);
  }

  @Mutation(() => RedeliveredWebhook, { description: 'I4 Send one delivery again' })
  redeliverWebhook(
    @Ctx() ctx: RequestContext,
    @id('endpointId') endpointId: string,
    @id('deliveryId') deliveryId: string,
  ) {
    return this.deliveries.redeliver(ctx, endpointId, deliveryId);
  }

  @Mutation(() => ReplayedWebhookDeliveries, {
    description: 'I5 Send again every delivery since a time',
  })
  replayWebhookDeliveries(
    @Ctx() ctx: RequestContext,
    @id('endpointId') endpointId: string,
    @Args('input') input: ReplayWebhookDeliveriesInput,
  ) {
    return this.deliveries.replay(ctx, endpointId, input);
  }

  @Mutation(() => RotatedWebhookSecret, { description: 'I6 Rotate the signing secret' })
  rotateWebhookSecret(
    @Ctx() ctx: RequestContext,
    @id('endpointId') endpointId: string,
    @Args('input', { nullable: true }) input?: RotateWebhookSecretInput,
  ) {
    return this.endpoints.rotate(ctx, endpointId, input ?? {});
  }
}
