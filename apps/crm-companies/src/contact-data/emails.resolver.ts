import { Args, ID, Mutation, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { CompanyEmail } from './dto/contact-data.output';
import { CompanyContactDeleted, CompanyEmailValidation } from './dto/contact-validation.output';
import { CreateCompanyEmailInput, UpdateCompanyEmailInput } from './dto/email.input';
import { EmailsService } from './emails.service';

const id = (name: string) => Args(name, { type: () => ID });

@Resolver(() => CompanyEmail)
export class EmailsResolver {
  constructor(private readonly emails: EmailsService) {}

  @Mutation(() => CompanyEmail, { description: 'C23 Add an e-mail address to a company' })
  createCompanyEmail(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @Args('input') input: CreateCompanyEmailInput,
  ) {
    return this.emails.create(ctx, companyId, input);
  }

  @Mutation(() => CompanyEmail, { description: 'C24 Update an e-mail address' })
  updateCompanyEmail(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('emailId') emailId: string,
    @Args('input') input: UpdateCompanyEmailInput,
  ) {
    return this.emails.update(ctx, companyId, emailId, input);
  }

  @Mutation(() => CompanyContactDeleted, { description: 'C25 Delete an e-mail address' })
  deleteCompanyEmail(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    @id('emailId') emailId: string,
  ) {
    return this.emails.remove(ctx, companyId, emailId);
  }

  @Mutation(() => CompanyEmailValidation, {
    description:
      'Validate an e-mail address without writing (as an update with emailId; email is ' +
      'required without it)',
  })
  validateCompanyEmail(
    @Ctx() ctx: RequestContext,
    @id('companyId') companyId: string,
    // not checked by the pipe: problems are the answer here, not a 400
    @Args('input', { type: () => UpdateCompanyEmailInput }) input: unknown,
    @Args('emailId', { type: () => ID, nullable: true }) emailId?: string,
  ) {
    return this.emails.validate(ctx, companyId, input, emailId ?? undefined);
  }
}
