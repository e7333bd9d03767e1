import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Paged, RawResponse } from '@crm/envelope';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { BusinessCard } from '../people/dto/person.dto';
import { BusinessCardsService } from './business-cards.service';
import { CardCompanyService } from './card-company.service';
import { CardValidationService } from './card-validation.service';
import {
  BusinessCardInput,
  ConnectCompanyInput,
  DeleteBusinessCardsInput,
} from './dto/business-card.input';
import { BusinessCardsDeleted, BusinessCardValidation } from './dto/business-card.output';

@ApiTags('Business Cards')
@Controller('people/:personId/business-cards')
export class BusinessCardsController {
  constructor(
    private readonly cards: BusinessCardsService,
    private readonly company: CardCompanyService,
    private readonly validation: CardValidationService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'B1 List all cards of a person',
    description: 'Favorite first, then oldest first; `q` searches business and alternative names',
  })
  @ApiEnvelope(BusinessCard, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Query() query: PageQuery,
  ): Promise<Paged<BusinessCard>> {
    return this.cards.list(ctx, personId, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'B2 Create a card' })
  @ApiEnvelope(BusinessCard, 201)
  create(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Body() body: BusinessCardInput,
  ): Promise<BusinessCard> {
    return this.cards.create(ctx, personId, body);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'B10 Validate a card before create or update',
    description:
      'Runs every check of B2 (or of B5 with `cardId`) without writing; `calculated.phones` ' +
      'shows the numbers as they would be stored',
  })
  @ApiQuery({ name: 'cardId', required: false, description: 'Validate as an update of this card' })
  @ApiBody({ type: BusinessCardInput })
  @ApiEnvelope(BusinessCardValidation)
  validate(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Body() body: unknown,
    @Query('cardId') cardId?: string,
  ): Promise<BusinessCardValidation> {
    return this.validation.validate(ctx, personId, body, cardId);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'B7 Delete several cards by ids',
    description: 'All or none: an id that is not a card of the person answers 404',
  })
  @ApiEnvelope(BusinessCardsDeleted)
  removeMany(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Body() body: DeleteBusinessCardsInput,
  ): Promise<BusinessCardsDeleted> {
    return this.cards.removeMany(ctx, personId, body.ids);
  }

  @Get(':cardId')
  @ApiOperation({ summary: 'B3 Read a card by people id and card id' })
  @ApiEnvelope(BusinessCard)
  get(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
  ): Promise<BusinessCard> {
    return this.cards.get(ctx, personId, cardId);
  }

  @Put(':cardId')
  @ApiOperation({
    summary: 'B5 Update a card',
    description: 'Fields not given stay as they are; null clears a field',
  })
  @ApiEnvelope(BusinessCard)
  update(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
    @Body() body: BusinessCardInput,
  ): Promise<BusinessCard> {
    return this.cards.update(ctx, personId, cardId, body);
  }

  @Delete(':cardId')
  @ApiOperation({
    summary: 'B6 Delete a card',
    description: 'When it was the favorite and exactly one card remains, that one becomes favorite',
  })
  @ApiEnvelope(BusinessCardsDeleted)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
  ): Promise<BusinessCardsDeleted> {
    return this.cards.removeOne(ctx, personId, cardId);
  }

  @Put(':cardId/company')
  @ApiOperation({
    summary: 'B8 Connect a card with a company',
    description:
      'companyId null disconnects. A private card -> 409; the company is asked of crm-companies: ' +
      'unknown -> 404, no answer -> 503 (nothing written)',
  })
  @ApiEnvelope(BusinessCard)
  @ApiResponse({ status: 409, description: 'The card is private' })
  @ApiResponse({ status: 503, description: 'crm-companies did not answer' })
  connect(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
    @Body() body: ConnectCompanyInput,
  ): Promise<BusinessCard> {
    return this.company.connect(ctx, personId, cardId, body);
  }

  @Get(':cardId/vcard')
  @RawResponse()
  @ApiOperation({ summary: 'B9 The card as vCard 4.0 (file name `<name>.vcf`)' })
  @ApiProduces('text/vcard')
  @ApiOkResponse({
    description: 'vCard 4.0 (RFC 6350)',
    content: { 'text/vcard': { schema: { type: 'string' } } },
  })
  async vcard(
    @Ctx() ctx: RequestContext,
    @Param('personId') personId: string,
    @Param('cardId') cardId: string,
  ): Promise<StreamableFile> {
    const file = await this.cards.vcard(ctx, personId, cardId);
    return new StreamableFile(Buffer.from(file.text, 'utf8'), {
      type: 'text/vcard; charset=utf-8',
      disposition: file.contentDisposition,
    });
  }
}

@ApiTags('Business Cards')
@Controller('business-cards')
export class BusinessCardByIdController {
  constructor(private readonly cards: BusinessCardsService) {}

  @Get(':cardId')
  @ApiOperation({ summary: 'B4 Read a card by card id only' })
  @ApiEnvelope(BusinessCard)
  get(@Ctx() ctx: RequestContext, @Param('cardId') cardId: string): Promise<BusinessCard> {
    return this.cards.get(ctx, undefined, cardId);
  }
}
