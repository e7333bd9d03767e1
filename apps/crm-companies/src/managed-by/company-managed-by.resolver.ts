import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { readRequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { Company } from '../companies/dto/company.output';
import { CompanyManager } from './dto/company-manager.output';
import { ManagedByService } from './managed-by.service';

type WithLoaders = GraphQLRequestContext & {
  managedByLoader?: DataLoader<string, CompanyManager[]>;
};

/** Company.managedBy: the managers of every company of one response in one SQL query. */
@Resolver(() => Company)
export class CompanyManagedByResolver {
  constructor(private readonly managers: ManagedByService) {}

  @ResolveField('managedBy', () => [CompanyManager], {
    description: 'The people responsible for the company, oldest relation first (all of them)',
  })
  managedBy(
    @Parent() company: Company,
    @Context() context: WithLoaders,
  ): Promise<CompanyManager[]> {
    context.managedByLoader ??= new DataLoader<string, CompanyManager[]>((ids) =>
      this.managers.ofCompanies(readRequestContext(context.req.headers), ids),
    );
    return context.managedByLoader.load(company.id);
  }
}
