import { Body, Controller, Delete, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  CompanyTagsSelectionInput,
  DeleteCompaniesInput,
  UpdateCompanyItemInput,
} from './dto/company-batch.input';
import { CompaniesDeleted, CompanyValidationResult } from './dto/company-results.output';
import { Company } from './dto/company.output';
import { CreateCompanyInput } from './dto/company.input';
import { CompaniesBatchCreateService } from './companies-batch-create.service';
import { CompaniesDeleteService } from './companies-delete.service';
import { CompaniesTagsService } from './companies-tags.service';
import { CompaniesUpdateService } from './companies-update.service';
import { CompaniesValidateService } from './companies-validate.service';

const BATCH_DOC =
  'At most 1000 items, all or nothing in one transaction. A 400 lists every invalid item by index (`[3].name`).';
const NOT_FOUND_MANY = ApiResponse({
  status: 404,
  description: 'Ids that are not companies of the tenant, each named by index; nothing changed',
});

// Fixed paths (/companies/batch, /companies/tags, /companies/validate): registered before the
// controller with /companies/:id. List bodies are typed unknown[]: the global pipe skips arrays,
// the services check every item.
@ApiTags('Companies')
@Controller('companies')
export class CompaniesBatchController {
  constructor(
    private readonly creates: CompaniesBatchCreateService,
    private readonly updates: CompaniesUpdateService,
    private readonly deletes: CompaniesDeleteService,
    private readonly tags: CompaniesTagsService,
    private readonly validation: CompaniesValidateService,
  ) {}

  @Post('batch')
  @HttpCode(201)
  @ApiOperation({ summary: 'C8 Create several companies', description: `C8. ${BATCH_DOC}` })
  @ApiBody({ type: [CreateCompanyInput] })
  @ApiEnvelope(Company, 201, true)
  createMany(@Ctx() ctx: RequestContext, @Body() body: unknown[]): Promise<Company[]> {
    return this.creates.createMany(ctx, body);
  }

  @Put('batch')
  @ApiOperation({
    summary: 'C8 Update several companies',
    description: `C8. Each item is the C5 body plus the id. ${BATCH_DOC} Ids that are not companies of the tenant: 404 naming each (\`[3].id\`).`,
  })
  @ApiBody({ type: [UpdateCompanyItemInput] })
  @ApiEnvelope(Company, 200, true)
  @NOT_FOUND_MANY
  updateMany(@Ctx() ctx: RequestContext, @Body() body: unknown[]): Promise<Company[]> {
    return this.updates.updateMany(ctx, body);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'C7 Delete several companies by ids',
    description:
      'C7. At most 1000 ids, all or nothing. Malformed ids: 400; ids that are not companies of the tenant: 404 naming each (`ids[3]`), nothing deleted. Contact data, bank accounts, documents, relations, managers and stored files go with them; crm-people is told through CompaniesDeletedEvents (business cards are disconnected).',
  })
  @ApiEnvelope(CompaniesDeleted)
  @NOT_FOUND_MANY
  deleteMany(
    @Ctx() ctx: RequestContext,
    @Body() body: DeleteCompaniesInput,
  ): Promise<CompaniesDeleted> {
    return this.deletes.deleteMany(ctx, body.ids);
  }

  @Post('tags')
  @HttpCode(200)
  @ApiOperation({
    summary: 'C12 Add tags to selected companies',
    description:
      'C12. tagIds are entries of the tags list (unknown: 400 naming `tagIds[i]`). Tags a company has already stay where they are; new ones are appended. Ids that are not companies of the tenant: 404 naming `companyIds[i]`, nothing changed. Answers with the companies as they are now.',
  })
  @ApiEnvelope(Company, 200, true)
  @NOT_FOUND_MANY
  addTags(@Ctx() ctx: RequestContext, @Body() body: CompanyTagsSelectionInput): Promise<Company[]> {
    return this.tags.change(ctx, body, 'add');
  }

  @Delete('tags')
  @ApiOperation({
    summary: 'C13 Remove tags from selected companies',
    description:
      'C13. Same body and rules as C12; a tag a company does not have is ignored. Answers with the companies as they are now.',
  })
  @ApiEnvelope(Company, 200, true)
  @NOT_FOUND_MANY
  removeTags(
    @Ctx() ctx: RequestContext,
    @Body() body: CompanyTagsSelectionInput,
  ): Promise<Company[]> {
    return this.tags.change(ctx, body, 'remove');
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'C14 Validate a company',
    description:
      'C14. Runs every check of C4 without writing. Always 200: data.valid, data.errors [{ field, rule, message }], data.calculated { websiteDomain }.',
  })
  @ApiBody({ type: CreateCompanyInput })
  @ApiEnvelope(CompanyValidationResult)
  validate(
    @Ctx() ctx: RequestContext,
    @Body() body: Record<string, unknown>,
  ): Promise<CompanyValidationResult> {
    return this.validation.validate(ctx, body);
  }
}
