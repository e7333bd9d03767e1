import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { PersonDocumentsArgs } from './dto/person-documents.args';
import { DeletedFile, PersonDocument, PersonDocumentPage } from './dto/person-document.dto';
import { DocumentsService } from './documents.service';

/** GraphQL lists and deletes documents; uploads and downloads are REST (P22, P23). */
@Resolver(() => PersonDocument)
export class DocumentsResolver {
  constructor(private readonly documents: DocumentsService) {}

  @Query(() => PersonDocumentPage, { description: 'P22 The documents of a person (metadata)' })
  async personDocuments(@Ctx() ctx: RequestContext, @Args() args: PersonDocumentsArgs) {
    const { personId, ...query } = args;
    const page = await this.documents.list(ctx, personId, query);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => DeletedFile, { description: 'P23 Delete a document of a person' })
  deletePersonDocument(
    @Ctx() ctx: RequestContext,
    @Args('personId', { type: () => ID }) personId: string,
    @Args('documentId', { type: () => ID }) documentId: string,
  ): Promise<DeletedFile> {
    return this.documents.remove(ctx, personId, documentId);
  }
}
