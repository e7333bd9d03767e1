import { Args, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { AiService } from './ai.service';
import { ContactExtraction } from './dto/contact-extraction.dto';
import { ContactExtractionInput } from './dto/contact-extraction.input';

@Resolver(() => ContactExtraction)
export class AiResolver {
  constructor(private readonly ai: AiService) {}

  @Query(() => ContactExtraction, {
    description: 'P24 Extract a person and a business card from free text (nothing is stored)',
  })
  extractContact(@Ctx() ctx: RequestContext, @Args() args: ContactExtractionInput) {
    return this.ai.extractContact(ctx, args);
  }
}
