import { Body, Controller, Delete, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { FAVORITE_RULE, NOT_FOUND } from './contact-docs';
import { CompanyEmail } from './dto/contact-data.output';
import { CompanyContactDeleted, CompanyEmailValidation } from './dto/contact-validation.output';
import { CreateCompanyEmailInput, UpdateCompanyEmailInput } from './dto/email.input';
import { EmailsService } from './emails.service';

const RULES =
  'The address is trimmed and checked; its domain (the part after @, lower-cased) finds the ' +
  'company in C3. emailType is `{ id }` of an entry of /company-settings/email-types.';
const CONFLICT = 'The company already has this e-mail address (ignoring case)';

@ApiTags('Companies')
@Controller('companies/:id/emails')
export class EmailsController {
  constructor(private readonly emails: EmailsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'C23 Add an e-mail address',
    description: `Appended at the end of the list. ${FAVORITE_RULE} ${RULES}`,
  })
  @ApiEnvelope(CompanyEmail, 201)
  @ApiNotFoundResponse({ description: NOT_FOUND.company })
  @ApiConflictResponse({ description: CONFLICT })
  create(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CreateCompanyEmailInput,
  ): Promise<CompanyEmail> {
    return this.emails.create(ctx, id, body);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'C23/C24 Validate an e-mail address (ours)',
    description:
      'Runs every check of C23 (or of C24 with `emailId`) without writing: 200 with ' +
      '`{ valid, errors: [{ field, rule, message }], calculated }`; `calculated` (when valid) is ' +
      '`{ email, domain }` as they would be stored (an address the company has already is an ' +
      `error here). ${RULES}`,
  })
  @ApiQuery({
    name: 'emailId',
    required: false,
    description: 'Validate as an update of this address',
  })
  @ApiBody({ type: CreateCompanyEmailInput })
  @ApiEnvelope(CompanyEmailValidation)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  validate(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query('emailId') emailId?: string,
  ): Promise<CompanyEmailValidation> {
    return this.emails.validate(ctx, id, body, emailId);
  }

  @Put(':emailId')
  @ApiOperation({
    summary: 'C24 Update an e-mail address',
    description: `Fields left out stay; emailType null clears. ${FAVORITE_RULE} ${RULES}`,
  })
  @ApiEnvelope(CompanyEmail)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  @ApiConflictResponse({ description: CONFLICT })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('emailId') emailId: string,
    @Body() body: UpdateCompanyEmailInput,
  ): Promise<CompanyEmail> {
    return this.emails.update(ctx, id, emailId, body);
  }

  @Delete(':emailId')
  @ApiOperation({
    summary: 'C25 Delete an e-mail address',
    description: `Answers \`{ id, newFavoriteId }\`. ${FAVORITE_RULE}`,
  })
  @ApiEnvelope(CompanyContactDeleted)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('emailId') emailId: string,
  ): Promise<CompanyContactDeleted> {
    return this.emails.remove(ctx, id, emailId);
  }
}
