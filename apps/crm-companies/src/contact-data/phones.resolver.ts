import { Args, ID, Mutation, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { CompanyPhone } from './dto/contact-data.output';
import { CompanyContactDeleted, CompanyPhoneValidation } from './dto/contact-validation.output';
import { CreateCompanyPhoneInput, UpdateCompanyPhoneInput } from './dto/phone.input';
import { PhonesService } from './phones.service';

const id = (name: string) => Args(name, { type: () => ID });

@Resolver(() => CompanyPhone)
export class PhonesResolver {
  constructor(private readonly phones: PhonesService) {}

  @Mutation(() => CompanyPhone, { description: 'C19 Add a phone number to a company (E.164)' })
  createCompanyPhone(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @Args('input') input: CreateCompanyPhoneInput,
  ) {
    return this.phones.create(ctx, companyId, input);
  }

  @Mutation(() => CompanyPhone, { description: 'C20 Update a phone number' })
  updateCompanyPhone(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('phoneId') phoneId: string,
    @Args('input') input: UpdateCompanyPhoneInput,
  ) {
    return this.phones.update(ctx, companyId, phoneId, input);
  }

  @Mutation(() => CompanyContactDeleted, { description: 'C21 Delete a phone number' })
  deleteCompanyPhone(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('phoneId') phoneId: string,
  ) {
    return this.phones.remove(ctx, companyId, phoneId);
  }

  @Mutation(() => CompanyPhoneValidation, {
    description:
      'C22 Validate a phone number without writing (as an update with phoneId; number is ' +
      'required without it)',
  })
  validateCompanyPhone(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    // not checked by the pipe: problems are the answer here, not a 400
    @Args('input', { type: () => UpdateCompanyPhoneInput }) input: unknown,
    @Args('phoneId', { type: () => ID, nullable: true }) phoneId?: string,
  ) {
    return this.phones.validate(ctx, companyId, input, phoneId ?? undefined);
  }
}
