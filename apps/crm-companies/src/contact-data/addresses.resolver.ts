import { Args, ID, Mutation, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { AddressesService } from './addresses.service';
import { CompanyAddressInput } from './dto/address.input';
import { CompanyAddress } from './dto/contact-data.output';
import { CompanyAddressValidation, CompanyContactDeleted } from './dto/contact-validation.output';

const id = (name: string) => Args(name, { type: () => ID });

@Resolver(() => CompanyAddress)
export class AddressesResolver {
  constructor(private readonly addresses: AddressesService) {}

  @Mutation(() => CompanyAddress, { description: 'C15 Create an address of a company' })
  createCompanyAddress(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @Args('input') input: CompanyAddressInput,
  ) {
    return this.addresses.create(ctx, companyId, input);
  }

  @Mutation(() => CompanyAddress, {
    description: 'C16 Update an address (fields left out stay, null clears)',
  })
  updateCompanyAddress(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('addressId') addressId: string,
    @Args('input') input: CompanyAddressInput,
  ) {
    return this.addresses.update(ctx, companyId, addressId, input);
  }

  @Mutation(() => CompanyContactDeleted, { description: 'C17 Delete an address' })
  deleteCompanyAddress(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('addressId') addressId: string,
  ) {
    return this.addresses.remove(ctx, companyId, addressId);
  }

  @Mutation(() => CompanyAddressValidation, {
    description: 'C18 Validate an address without writing (as an update with addressId)',
  })
  validateCompanyAddress(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    // not checked by the pipe: problems are the answer here, not a 400
    @Args('input', { type: () => CompanyAddressInput }) input: unknown,
    @Args('addressId', { type: () => ID, nullable: true }) addressId?: string,
  ) {
    return this.addresses.validate(ctx, companyId, input, addressId ?? undefined);
  }
}
