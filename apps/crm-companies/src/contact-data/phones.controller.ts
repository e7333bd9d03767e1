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
import { CompanyPhone } from './dto/contact-data.output';
import { CompanyContactDeleted, CompanyPhoneValidation } from './dto/contact-validation.output';
import { CreateCompanyPhoneInput, UpdateCompanyPhoneInput } from './dto/phone.input';
import { PhonesService } from './phones.service';

const RULES =
  'The number is read with libphonenumber-js: a national number needs `countryCode` (its ' +
  'region, not stored), otherwise it must be international (+...); it is stored in E.164. An ' +
  'extension cannot be stored in E.164 and is refused (put it in label).';
const CONFLICT = 'The company already has this number (compared in E.164)';

@ApiTags('Companies')
@Controller('companies/:id/phones')
export class PhonesController {
  constructor(private readonly phones: PhonesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'C19 Add a phone number',
    description: `Appended at the end of the list. ${FAVORITE_RULE} ${RULES}`,
  })
  @ApiEnvelope(CompanyPhone, 201)
  @ApiNotFoundResponse({ description: NOT_FOUND.company })
  @ApiConflictResponse({ description: CONFLICT })
  create(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CreateCompanyPhoneInput,
  ): Promise<CompanyPhone> {
    return this.phones.create(ctx, id, body);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'C22 Validate a phone number',
    description:
      'Runs every check of C19 (or of C20 with `phoneId`) without writing: 200 with ' +
      '`{ valid, errors: [{ field, rule, message }], calculated }`; `calculated` (when valid) is ' +
      '`{ e164, national, international, country, numberType }` of the number as it would be ' +
      `stored (a number the company has already is an error here). ${RULES}`,
  })
  @ApiQuery({
    name: 'phoneId',
    required: false,
    description: 'Validate as an update of this number',
  })
  @ApiBody({ type: CreateCompanyPhoneInput })
  @ApiEnvelope(CompanyPhoneValidation)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  validate(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query('phoneId') phoneId?: string,
  ): Promise<CompanyPhoneValidation> {
    return this.phones.validate(ctx, id, body, phoneId);
  }

  @Put(':phoneId')
  @ApiOperation({
    summary: 'C20 Update a phone number',
    description: `Fields left out stay; label null clears, type null is office. ${FAVORITE_RULE} ${RULES}`,
  })
  @ApiEnvelope(CompanyPhone)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  @ApiConflictResponse({ description: CONFLICT })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('phoneId') phoneId: string,
    @Body() body: UpdateCompanyPhoneInput,
  ): Promise<CompanyPhone> {
    return this.phones.update(ctx, id, phoneId, body);
  }

  @Delete(':phoneId')
  @ApiOperation({
    summary: 'C21 Delete a phone number',
    description: `Answers \`{ id, newFavoriteId }\`. ${FAVORITE_RULE}`,
  })
  @ApiEnvelope(CompanyContactDeleted)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('phoneId') phoneId: string,
  ): Promise<CompanyContactDeleted> {
    return this.phones.remove(ctx, id, phoneId);
  }
}
