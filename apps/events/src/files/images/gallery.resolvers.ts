import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { EventsFileDeleted } from '../dto/file-deleted.output';
import { GalleryImageOutput } from './dto/gallery-image.output';
import { EventImagesService, WebsiteImagesService } from './gallery.services';

const id = (name: string) => Args(name, { type: () => ID });

/** E15, E16, W14, W15 over GraphQL: list, describe and delete; uploads and bytes are REST. */
@Resolver(() => GalleryImageOutput)
export class GalleryResolver {
  constructor(
    private readonly events: EventImagesService,
    private readonly websites: WebsiteImagesService,
  ) {}

  @Query(() => [GalleryImageOutput], { description: 'E15 The images of an event' })
  eventImages(@Ctx() ctx: RequestContext, @id('eventId') eventId: string) {
    return this.events.list(ctx, eventId);
  }

  @Mutation(() => EventsFileDeleted, { description: 'E16 Delete an image of an event' })
  deleteEventImage(
    @Ctx() ctx: RequestContext,
    @id('eventId') eventId: string,
    @id('imageId') imageId: string,
  ) {
    return this.events.remove(ctx, eventId, imageId);
  }

  @Query(() => [GalleryImageOutput], { description: 'W14 The images of a website' })
  websiteImages(@Ctx() ctx: RequestContext, @id('websiteId') websiteId: string) {
    return this.websites.list(ctx, websiteId);
  }

  @Mutation(() => EventsFileDeleted, { description: 'W15 Delete an image of a website' })
  deleteWebsiteImage(
    @Ctx() ctx: RequestContext,
    @id('websiteId') websiteId: string,
    @id('imageId') imageId: string,
  ) {
    return this.websites.remove(ctx, websiteId, imageId);
  }
}
