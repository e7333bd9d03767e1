import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { PublicConfigQuery } from './dto/website.input';
import { PublicBookingForm, PublicEvent, PublicWebsite } from './dto/website-public.output';
import { WebsitesPublicService } from './websites-public.service';

/**
 * W8-W10 over GraphQL: the same service methods and answers as the public REST routes (unknown,
 * unpublished or another tenant's: the same NOT_FOUND). GraphQL through the gateway takes an API
 * key like every operation (as BK1 and IN1 do); a portal without a key reads over REST, where
 * the answers are also cacheable. Image bytes stay REST.
 */
@Resolver(() => PublicEvent)
export class WebsitesPublicResolver {
  constructor(private readonly service: WebsitesPublicService) {}

  @Query(() => PublicEvent, {
    description: 'W8 A published event, as a portal shows it (GET /websites/public/events/{id})',
  })
  publicEvent(@Ctx() ctx: RequestContext, @Args('eventId', { type: () => ID }) eventId: string) {
    return this.service.event(ctx, eventId);
  }

  @Query(() => PublicBookingForm, {
    description: 'W9 The booking form field set a published event uses',
  })
  publicEventBookingForm(
    @Ctx() ctx: RequestContext,
    @Args('eventId', { type: () => ID }) eventId: string,
  ) {
    return this.service.bookingForm(ctx, eventId);
  }

  @Query(() => PublicWebsite, {
    description:
      'W10 The published website whose normalised url is `url` (scheme, www., default port, trailing slash, query and fragment ignored)',
  })
  publicWebsiteConfig(@Ctx() ctx: RequestContext, @Args() query: PublicConfigQuery) {
    return this.service.config(ctx, query.url);
  }
}
