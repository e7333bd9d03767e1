import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AppException, ErrorCode } from '@crm/errors';
import { Ctx, RequestContext } from '@crm/request-context';
import { CardAddress } from '../people/dto/person.dto';
import { CardAddressesService } from './card-addresses.service';
import { CardAddressDeleted } from './dto/business-card.output';
import { CardAddressInput } from './dto/card-address.input';

const id = (name: string) => Args(name, { type: () => ID });

@Resolver(() => CardAddress)
export class CardAddressesResolver {
  constructor(private readonly addresses: CardAddressesService) {}

  @Query(() => CardAddress, { nullable: true, description: 'B12 An address (null when unknown)' })
  async cardAddress(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @id('cardId') cardId: string,
    @id('addressId') addressId: string,
  ) {
    try {
      return await this.addresses.get(ctx, personId, cardId, addressId);
    } catch (err) {
      if (err instanceof AppException && err.code === ErrorCode.NOT_FOUND) return null;
      throw err;
    }
  }

  @Mutation(() => CardAddress, { description: 'B11 Create an address' })
  createCardAddress(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @id('cardId') cardId: string,
    @Args('input') input: CardAddressInput,
  ) {
    return this.addresses.create(ctx, personId, cardId, input);
  }

  @Mutation(() => CardAddress, { description: 'B13 Update an address (fields not given stay)' })
  updateCardAddress(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @id('cardId') cardId: string,
    @id('addressId') addressId: string,
    @Args('input') input: CardAddressInput,
  ) {
    return this.addresses.update(ctx, personId, cardId, addressId, input);
  }

  @Mutation(() => CardAddressDeleted, { description: 'B14 Delete an address' })
  deleteCardAddress(
    @Ctx() ctx: RequestContext,
    @id('personId') personId: string,
    @id('cardId') cardId: string,
    @id('addressId') addressId: string,
  ) {
    return this.addresses.remove(ctx, personId, cardId, addressId);
  }
}
