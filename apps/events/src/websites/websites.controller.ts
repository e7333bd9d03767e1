import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  CreateWebsiteInput,
  MigrateWebsiteInput,
  UpdateWebsiteInput,
  WebsitePublicationInput,
  WebsiteQuery,
} from './dto/website.input';
import {
  Website,
  WebsiteMigrated,
  WebsitesDeleted,
  WebsiteValidationResult,
} from './dto/website.output';
import { WebsitesService } from './websites.service';

const URL_RULE =
  '`url` (http or https, no query or fragment) is unique across all tenants by its normalised ' +
  'form: scheme, a leading `www.`, the default port and trailing slashes ignored, host lower ' +
  'case. A url taken answers 409, the same whoever holds it.';
const PUBLISH_RULES =
  'Publishing needs a name, a url, a language, config.imprintUrl, config.privacyUrl, a text ' +
  '(config.texts) in the language, and config.logoImageId (when set) naming an image of the website.';

@ApiTags('Websites')
@Controller('websites')
export class WebsitesController {
  constructor(private readonly websites: WebsitesService) {}

  @Get()
  @ApiOperation({
    summary: 'W1 List websites',
    description:
      'W1 Paged; sort by name (default), dateCreated, dateModified, url; `q` over name, url and description; `published`.',
  })
  @ApiEnvelope(Website, 200, true)
  list(@Ctx() ctx: RequestContext, @Query() query: WebsiteQuery): Promise<Paged<Website>> {
    return this.websites.list(ctx, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'W3 Create a website',
    description: `W3 Unpublished until W12. ${URL_RULE}`,
  })
  @ApiEnvelope(Website, 201)
  @ApiResponse({ status: 409, description: 'The url is taken' })
  create(@Ctx() ctx: RequestContext, @Body() body: CreateWebsiteInput): Promise<Website> {
    return this.websites.create(ctx, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'W2 Read a website' })
  @ApiEnvelope(Website)
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Website> {
    return this.websites.get(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'W4 Update a website',
    description: `W4 Fields not given stay; null clears description, language, config (config is replaced whole). ${URL_RULE} A published website must stay publishable: 409 listing what is missing. ${PUBLISH_RULES}`,
  })
  @ApiEnvelope(Website)
  @ApiResponse({
    status: 409,
    description: 'The url is taken, or the published website would miss a piece',
  })
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateWebsiteInput,
  ): Promise<Website> {
    return this.websites.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'W5 Delete a website',
    description: 'W5 Its events stay, without this website; its images go.',
  })
  @ApiEnvelope(WebsitesDeleted)
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<WebsitesDeleted> {
    return this.websites.remove(ctx, id);
  }

  @Post(':id/migrate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'W11 Migrate a website to another',
    description:
      'W11 Every event of this website moves to `targetWebsiteId` (another website of the ' +
      'tenant; the same one: 400; unknown: 404) in one transaction; an event already on both ' +
      'keeps one. The website is kept, unpublished. `events.websites.migrated` goes through the ' +
      'outbox in the same transaction, so bookings-invitations follows.',
  })
  @ApiEnvelope(WebsiteMigrated)
  migrate(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: MigrateWebsiteInput,
  ): Promise<WebsiteMigrated> {
    return this.websites.migrate(ctx, id, body);
  }

  @Put(':id/publication')
  @ApiOperation({
    summary: 'W12 Enable or disable publication',
    description: `W12 ${PUBLISH_RULES} A website missing a piece: 409 with the W13 errors. Unpublishing always works.`,
  })
  @ApiEnvelope(Website)
  @ApiResponse({ status: 409, description: 'The website misses a piece (errors by field)' })
  publication(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: WebsitePublicationInput,
  ): Promise<Website> {
    return this.websites.setPublication(ctx, id, body.published);
  }

  @Post(':id/publication/validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'W13 Validate publication',
    description: `W13 Every missing piece by field. ${PUBLISH_RULES}`,
  })
  @ApiEnvelope(WebsiteValidationResult)
  validatePublication(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
  ): Promise<WebsiteValidationResult> {
    return this.websites.validatePublication(ctx, id);
  }
}
