import { Body, Controller, Delete, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiNotFoundResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { AddressesService } from './addresses.service';
import { CompanyAddressInput } from './dto/address.input';
import { CompanyAddress } from './dto/contact-data.output';
import { CompanyAddressValidation, CompanyContactDeleted } from './dto/contact-validation.output';
import { FAVORITE_RULE, NOT_FOUND } from './contact-docs';

const RULES =
  'An address needs at least one of street, zip, city, postboxNumber; isPostOfficeBox needs ' +
  'postboxNumber; longitude and latitude come together; countryCode is ISO 3166-1 alpha-2 ' +
  '(stored upper case); texts are trimmed.';

@ApiTags('Companies')
@Controller('companies/:id/addresses')
export class AddressesController {
  constructor(private readonly addresses: AddressesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'C15 Create an address',
    description: `Appended at the end of the list. ${FAVORITE_RULE} ${RULES}`,
  })
  @ApiEnvelope(CompanyAddress, 201)
  @ApiNotFoundResponse({ description: NOT_FOUND.company })
  create(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CompanyAddressInput,
  ): Promise<CompanyAddress> {
    return this.addresses.create(ctx, id, body);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'C18 Validate an address',
    description:
      'Runs every check of C15 (or of C16 with `addressId`) without writing: 200 with ' +
      '`{ valid, errors: [{ field, rule, message }], calculated }`; `calculated` (when valid) is ' +
      `the address as it would be stored, with the favorite flag it would get. ${RULES}`,
  })
  @ApiQuery({
    name: 'addressId',
    required: false,
    description: 'Validate as an update of this address',
  })
  @ApiBody({ type: CompanyAddressInput })
  @ApiEnvelope(CompanyAddressValidation)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  validate(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query('addressId') addressId?: string,
  ): Promise<CompanyAddressValidation> {
    return this.addresses.validate(ctx, id, body, addressId);
  }

  @Put(':addressId')
  @ApiOperation({
    summary: 'C16 Update an address',
    description: `Fields left out stay, null clears. ${FAVORITE_RULE} ${RULES}`,
  })
  @ApiEnvelope(CompanyAddress)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('addressId') addressId: string,
    @Body() body: CompanyAddressInput,
  ): Promise<CompanyAddress> {
    return this.addresses.update(ctx, id, addressId, body);
  }

  @Delete(':addressId')
  @ApiOperation({
    summary: 'C17 Delete an address',
    description: `Answers \`{ id, newFavoriteId }\`. ${FAVORITE_RULE}`,
  })
  @ApiEnvelope(CompanyContactDeleted)
  @ApiNotFoundResponse({ description: NOT_FOUND.item })
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('addressId') addressId: string,
  ): Promise<CompanyContactDeleted> {
    return this.addresses.remove(ctx, id, addressId);
  }
}
