import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ContactPersonTemplateInput } from './dto/template.input';
import {
  ContactPersonTemplate,
  ContactPersonTemplatePage,
  TemplateImage,
  TemplateImageDeleted,
} from './dto/template.output';
import { TemplatesService } from './templates.service';

// Inputs typed as records so the global pipe leaves them to the service (REST's checks).
@Resolver(() => ContactPersonTemplate)
export class TemplatesResolver {
  constructor(private readonly templates: TemplatesService) {}

  @Query(() => ContactPersonTemplatePage, { description: 'ES4 The contact person templates' })
  async contactPersonTemplates(@Ctx() ctx: RequestContext, @Args() query: PageQuery) {
    const page = await this.templates.list(ctx, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => ContactPersonTemplate, { description: 'ES5 A contact person template' })
  contactPersonTemplate(@Ctx() ctx: RequestContext, @Args('id', { type: () => ID }) id: string) {
    return this.templates.get(ctx, id);
  }

  @Query(() => TemplateImage, {
    nullable: true,
    description: 'ES7 The sizes of the image of a template (null: none)',
  })
  contactPersonTemplateImage(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
  ) {
    return this.templates.describeImage(ctx, id);
  }

  @Mutation(() => ContactPersonTemplate, { description: 'ES5 Create a contact person template' })
  createContactPersonTemplate(
    @Ctx() ctx: RequestContext,
    @Args('input', { type: () => ContactPersonTemplateInput }) input: Record<string, unknown>,
  ) {
    return this.templates.create(ctx, input);
  }

  @Mutation(() => ContactPersonTemplate, {
    description: 'ES5 Replace a contact person template',
  })
  updateContactPersonTemplate(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input', { type: () => ContactPersonTemplateInput }) input: Record<string, unknown>,
  ) {
    return this.templates.update(ctx, id, input);
  }

  @Mutation(() => ContactPersonTemplate, { description: 'ES5 Delete a contact person template' })
  deleteContactPersonTemplate(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
  ) {
    return this.templates.delete(ctx, id);
  }

  @Mutation(() => ContactPersonTemplate, { description: 'ES6 Copy a contact person template' })
  copyContactPersonTemplate(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
  ) {
    return this.templates.copy(ctx, id);
  }

  @Mutation(() => TemplateImageDeleted, {
    description: 'ES7 Delete the image of a contact person template',
  })
  deleteContactPersonTemplateImage(
    @Ctx() ctx: RequestContext,
    @Args('id', { type: () => ID }) id: string,
  ) {
    return this.templates.removeImage(ctx, id);
  }
}
