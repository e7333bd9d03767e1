import {
  Args,
  ID,
  Mutation,
  Parent,
  Query,
  ResolveField,
  Resolver,
  ResolveReference,
} from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { Ctx, readRequestContext, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { BusinessCard } from '../people/dto/person.dto';
import { BusinessCardsService } from './business-cards.service';
import { CardCompanyService } from './card-company.service';
import { CardValidationService } from './card-validation.service';
import { BusinessCardsArgs, DeleteBusinessCardsArgs } from './dto/business-card.args';
import { BusinessCardInput, ConnectCompanyInput } from './dto/business-card.input';
import {
  BusinessCardsDeleted,
  BusinessCardsPage,
  BusinessCardValidation,
  CompanyRef,
} from './dto/business-card.output';

type WithLoaders = GraphQLRequestContext & {
  businessCardLoader?: DataLoader<string, BusinessCard | null>;
};

const id = (name: string) => Args(name, { type: () => ID });

@Resolver(() => BusinessCard)
export class BusinessCardsResolver {
  constructor(
    private readonly cards: BusinessCardsService,
    private readonly companies: CardCompanyService,
    private readonly validation: CardValidationService,
  ) {}

  @Query(() => BusinessCardsPage, { description: 'B1 The cards of a person' })
  businessCards(@Ctx() ctx: RequestContext, @Args() { personId, ...query }: BusinessCardsArgs) {
    return this.cards.list(ctx, personId, query);
  }

  @Query(() => BusinessCard, {
    nullable: true,
    description: 'B3/B4 A card by id, of the person when personId is given (null when unknown)',
  })
  businessCard(
    @Ctx() ctx: RequestContext,
    @id('id') cardId: string,
    @Args('personId', { type: () => ID, nullable: true }) personId?: string | null,
  ) {
    return this.cards.find(ctx, personId ?? undefined, cardId);
  }

  @Mutation(() => BusinessCard, { description: 'B2 Create a card' })
  createBusinessCard(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @Args('input') input: BusinessCardInput,
  ) {
    return this.cards.create(ctx, personId, input);
  }

  @Mutation(() => BusinessCard, { description: 'B5 Update a card (fields not given stay)' })
  updateBusinessCard(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @id('cardId') cardId: string,
    @Args('input') input: BusinessCardInput,
  ) {
    return this.cards.update(ctx, personId, cardId, input);
  }

  @Mutation(() => BusinessCardsDeleted, { description: 'B6 Delete a card' })
  deleteBusinessCard(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @id('cardId') cardId: string,
  ) {
    return this.cards.removeOne(ctx, personId, cardId);
  }

  @Mutation(() => BusinessCardsDeleted, { description: 'B7 Delete several cards (all or none)' })
  deleteBusinessCards(@Ctx() ctx: RequestContext, @Args() args: DeleteBusinessCardsArgs) {
    return this.cards.removeMany(ctx, args.personId, args.ids);
  }

  @Mutation(() => BusinessCard, {
    description: 'B8 Connect a card with a company (companyId null disconnects)',
  })
  connectBusinessCardToCompany(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @id('cardId') cardId: string,
    @Args('input') input: ConnectCompanyInput,
  ) {
    return this.companies.connect(ctx, personId, cardId, input);
  }

  @Query(() => BusinessCardValidation, {
    description: 'B10 Validate a card (as an update of cardId when given) without writing',
  })
  validateBusinessCard(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    // typed loosely on purpose: problems are answered, not thrown by the validation pipe
    @Args('input', { type: () => BusinessCardInput }) input: object,
    @Args('cardId', { type: () => ID, nullable: true }) cardId?: string | null,
  ) {
    return this.validation.validate(ctx, personId, { ...input }, cardId ?? undefined);
  }

  /** Federation reference to crm-companies' Company (this subgraph knows only the id). */
  @ResolveField(() => CompanyRef, { nullable: true })
  company(@Parent() card: BusinessCard): CompanyRef | null {
    return card.companyId ? ({ __typename: 'Company', id: card.companyId } as CompanyRef) : null;
  }

  /** Federation: every BusinessCard reference of one request is loaded in one query. */
  @ResolveReference()
  resolveReference(ref: { __typename: string; id: string }, context: WithLoaders) {
    context.businessCardLoader ??= new DataLoader<string, BusinessCard | null>((ids) =>
      this.cards.getMany(readRequestContext(context.req.headers), ids),
    );
    return context.businessCardLoader.load(ref.id);
  }
}
