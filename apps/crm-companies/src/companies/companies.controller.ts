import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { UpdateCompanyLifecycleInput, UpdateCompanyNoteInput } from './dto/company-note.input';
import { CompaniesDeleted } from './dto/company-results.output';
import { Company, CompanyNoteOutput } from './dto/company.output';
import { CompanyTagInput, CreateCompanyInput, UpdateCompanyInput } from './dto/company.input';
import { CompaniesDeleteService } from './companies-delete.service';
import { CompaniesUpdateService } from './companies-update.service';
import { CompaniesService } from './companies.service';

const NOT_FOUND = ApiResponse({
  status: 404,
  description: 'Not a company of the tenant (unknown, foreign or malformed id); nothing changed',
});

// Registered after the controllers with fixed paths (/companies/batch, /companies/tags,
// /companies/validate), so that those are not taken for an id.
@ApiTags('Companies')
@Controller('companies')
export class CompaniesController {
  constructor(
    private readonly companies: CompaniesService,
    private readonly updates: CompaniesUpdateService,
    private readonly deletes: CompaniesDeleteService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'C4 Create a company',
    description:
      'C4. name is required (1-200 characters, trimmed). website is an http(s) URL or a bare host, stored as given; websiteDomain is derived. legalForm, industrySector, employeeCount, customerCount, referenceNumbers[].type, lifecycle and tags refer to entries of the company settings lists (tags by id, or by text: found in any case, else created). Contact data (C15-C25) and the logo (C28) have their own operations and are refused here, as are unknown fields.',
  })
  @ApiEnvelope(Company, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateCompanyInput): Promise<Company> {
    return this.companies.create(ctx, body);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'C2 Read a company by id',
    description: 'C2. With note, tags, lifecycle, contact data and logo.',
  })
  @ApiEnvelope(Company)
  @NOT_FOUND
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Company> {
    return this.companies.get(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'C5 Update a company',
    description:
      'C5. Same fields as C4. A field that is absent stays unchanged, null clears it (the name cannot be cleared); a list given replaces the list. A new lifecycle is appended to the history.',
  })
  @ApiEnvelope(Company)
  @NOT_FOUND
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateCompanyInput,
  ): Promise<Company> {
    return this.updates.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'C6 Delete a company',
    description:
      'C6. Deletes the company with note, tags, history, contact data, bank accounts, documents, relations (both directions), managers and its stored files (logo, documents). crm-people is told through a CompaniesDeletedEvent and disconnects the business cards pointing at it.',
  })
  @ApiEnvelope(CompaniesDeleted)
  @NOT_FOUND
  delete(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<CompaniesDeleted> {
    return this.deletes.delete(ctx, id);
  }

  @Put(':id/notes')
  @ApiOperation({
    summary: 'C9 Update the note of a company',
    description: 'C9. Body { note }: at most 10000 characters; null clears it.',
  })
  @ApiEnvelope(CompanyNoteOutput)
  @NOT_FOUND
  updateNote(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateCompanyNoteInput,
  ): Promise<CompanyNoteOutput> {
    return this.companies.updateNote(ctx, id, body.note);
  }

  @Put(':id/tags')
  @ApiOperation({
    summary: 'C10 Replace the tags of a company',
    description:
      'C10. The body is the whole new list (at most 200): a tag by id (an entry of the tags list) or by text (found in any case, else created). [] clears it.',
  })
  @ApiBody({ type: [CompanyTagInput] })
  @ApiEnvelope(Company)
  @NOT_FOUND
  replaceTags(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown[],
  ): Promise<Company> {
    return this.updates.replaceTags(ctx, id, body);
  }

  @Put(':id/lifecycle')
  @ApiOperation({
    summary: 'C11 Update the lifecycle of a company',
    description:
      'C11. Body { lifecycleId }: an entry of the lifecycles list, null clears it. A change is recorded in the lifecycle history; the current lifecycle again writes nothing.',
  })
  @ApiEnvelope(Company)
  @NOT_FOUND
  updateLifecycle(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateCompanyLifecycleInput,
  ): Promise<Company> {
    return this.updates.updateLifecycle(ctx, id, body.lifecycleId);
  }
}
