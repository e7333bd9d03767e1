import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { CardAddress } from '../people/dto/person.dto';
import { CardAddressesService } from './card-addresses.service';
import { CardAddressDeleted } from './dto/business-card.output';
import { CardAddressInput } from './dto/card-address.input';

@ApiTags('Business Cards')
@Controller('people/:personId/business-cards/:cardId/addresses')
export class CardAddressesController {
  constructor(private readonly addresses: CardAddressesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'B11 Create an address',
    description: 'If it is the favorite, the previous favorite loses the status',
  })
  @ApiEnvelope(CardAddress, 201)
  create(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
    @Body() body: CardAddressInput,
  ): Promise<CardAddress> {
    return this.addresses.create(ctx, personId, cardId, body);
  }

  @Get(':addressId')
  @ApiOperation({ summary: 'B12 Read an address' })
  @ApiEnvelope(CardAddress)
  get(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
    @Param('addressId') addressId: string,
  ): Promise<CardAddress> {
    return this.addresses.get(ctx, personId, cardId, addressId);
  }

  @Put(':addressId')
  @ApiOperation({
    summary: 'B13 Update an address',
    description: 'Fields not given stay; isFavorite true demotes the previous favorite',
  })
  @ApiEnvelope(CardAddress)
  update(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
    @Param('addressId') addressId: string,
    @Body() body: CardAddressInput,
  ): Promise<CardAddress> {
    return this.addresses.update(ctx, personId, cardId, addressId, body);
  }

  @Delete(':addressId')
  @ApiOperation({
    summary: 'B14 Delete an address',
    description:
      'If it was the favorite and exactly one other remains, that one becomes the favorite; ' +
      'otherwise none',
  })
  @ApiEnvelope(CardAddressDeleted)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
    @Param('addressId') addressId: string,
  ): Promise<CardAddressDeleted> {
    return this.addresses.remove(ctx, personId, cardId, addressId);
  }
}
