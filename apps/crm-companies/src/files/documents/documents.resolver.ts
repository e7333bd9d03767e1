import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { CompanyFileDeleted } from '../dto/file-deleted.output';
import { CompanyDocumentsArgs } from './dto/company-documents.args';
import { CompanyDocument, CompanyDocumentPage } from './dto/company-document.output';
import { DocumentsService } from './documents.service';

/** GraphQL lists and deletes documents; uploads and downloads are REST (C31, C32). */
@Resolver(() => CompanyDocument)
export class DocumentsResolver {
  constructor(private readonly documents: DocumentsService) {}

  @Query(() => CompanyDocumentPage, { description: 'C31 The documents of a company (metadata)' })
  async companyDocuments(@Ctx() ctx: RequestContext, @Args() args: CompanyDocumentsArgs) {
    const { companyId, ...query } = args;
    const page = await this.documents.list(ctx, companyId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => CompanyFileDeleted, { description: 'C32 Delete a document of a company' })
  deleteCompanyDocument(
    @Ctx() ctx: RequestContext,
    @Args('companyId', { type: () => ID }) companyId: string,
    @Args('documentId', { type: () => ID }) documentId: string,
  ): Promise<CompanyFileDeleted> {
    return this.documents.remove(ctx, companyId, documentId);
  }
}
