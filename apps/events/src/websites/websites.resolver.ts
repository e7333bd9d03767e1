import { Args, ID, Mutation, Query, Resolver, ResolveReference } from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { Ctx, readRequestContext, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import {
  CreateWebsiteInput,
  DeleteWebsitesInput,
  MigrateWebsiteInput,
  UpdateWebsiteInput,
  WebsiteQuery,
} from './dto/website.input';
import {
  Website,
  WebsiteMigrated,
  WebsitePage,
  WebsitesDeleted,
  WebsiteValidationResult,
} from './dto/website.output';
import { WebsitesService } from './websites.service';

type WithLoaders = GraphQLRequestContext & { websiteLoader?: DataLoader<string, Website | null> };
const id = (name = 'id') => Args(name, { type: () => ID });

/** W1-W7, W11-W13 over GraphQL: the same service methods (the public W8-W10: WebsitesPublicResolver). */
@Resolver(() => Website)
export class WebsitesResolver {
  constructor(private readonly service: WebsitesService) {}

  @Query(() => Website, { description: 'W2 Read a website' })
  website(@Ctx() ctx: RequestContext, @id() websiteId: string) {
    return this.service.get(ctx, websiteId);
  }

  @Query(() => WebsitePage, { description: 'W1 List websites' })
  async websites(@Ctx() ctx: RequestContext, @Args() query: WebsiteQuery) {
    const page = await this.service.list(ctx, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => Website, { description: 'W3 Create a website' })
  createWebsite(@Ctx() ctx: RequestContext, @Args('input') input: CreateWebsiteInput) {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Website, { description: 'W4 Update a website' })
  updateWebsite(
    @Ctx() ctx: RequestContext,
    @id() websiteId: string,
    @Args('input') input: UpdateWebsiteInput,
  ) {
    return this.service.update(ctx, websiteId, input);
  }

  @Mutation(() => WebsitesDeleted, { description: 'W5 Delete a website' })
  deleteWebsite(@Ctx() ctx: RequestContext, @id() websiteId: string) {
    return this.service.remove(ctx, websiteId);
  }

  @Mutation(() => WebsitesDeleted, { description: 'W6 Delete several websites' })
  deleteWebsites(@Ctx() ctx: RequestContext, @Args('input') input: DeleteWebsitesInput) {
    return this.service.removeMany(ctx, input.ids);
  }

  @Mutation(() => WebsiteValidationResult, {
    description:
      'W7 Validate a website without writing: every check of createWebsite (the input type leaves name and url optional so that a missing one is reported in errors)',
  })
  validateWebsite(
    @Ctx() ctx: RequestContext,
    @Args('input', { type: () => UpdateWebsiteInput }) input: Record<string, unknown>,
  ) {
    return this.service.validate(ctx, input);
  }

  @Mutation(() => WebsiteMigrated, { description: 'W11 Move every event of a website to another' })
  migrateWebsite(
    @Ctx() ctx: RequestContext,
    @id() websiteId: string,
    @Args('input') input: MigrateWebsiteInput,
  ) {
    return this.service.migrate(ctx, websiteId, input);
  }

  @Mutation(() => Website, { description: 'W12 Enable or disable publication' })
  setWebsitePublication(
    @Ctx() ctx: RequestContext,
    @id() websiteId: string,
    @Args('published') published: boolean,
  ) {
    return this.service.setPublication(ctx, websiteId, published);
  }

  @Mutation(() => WebsiteValidationResult, { description: 'W13 Validate publication' })
  validateWebsitePublication(@Ctx() ctx: RequestContext, @id() websiteId: string) {
    return this.service.validatePublication(ctx, websiteId);
  }

  @ResolveReference()
  resolveReference(ref: { __typename: string; id: string }, context: WithLoaders) {
    context.websiteLoader ??= new DataLoader<string, Website | null>((ids) =>
      this.service.getMany(readRequestContext(context.req.headers), ids),
    );
    return context.websiteLoader.load(ref.id);
  }
}
