import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { CreateWebsiteInput, DeleteWebsitesInput } from './dto/website.input';
import { WebsitesDeleted, WebsiteValidationResult } from './dto/website.output';
import { WebsitesService } from './websites.service';

// Fixed paths (/websites/batch, /websites/validate): registered before the controller with
// /websites/:id (Fastify prefers static segments anyway; the order keeps it obvious).
@ApiTags('Websites')
@Controller('websites')
export class WebsitesBatchController {
  constructor(private readonly websites: WebsitesService) {}

  @Delete('batch')
  @ApiOperation({
    summary: 'W6 Delete several websites',
    description:
      'W6 At most 1000 ids, all or nothing. Malformed ids: 400 naming each (`ids[3]`); ids that ' +
      'are not websites of the tenant: 404 naming each, nothing deleted. Their events stay, ' +
      'without these websites; their images go.',
  })
  @ApiEnvelope(WebsitesDeleted)
  @ApiResponse({
    status: 404,
    description: 'Ids that are not websites of the tenant; nothing deleted',
  })
  removeMany(
    @Ctx() ctx: RequestContext,
    @Body() body: DeleteWebsitesInput,
  ): Promise<WebsitesDeleted> {
    return this.websites.removeMany(ctx, body.ids);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'W7 Validate a website',
    description:
      'W7 Every check of a create (W3) without writing: shape, url (http/https, no query or ' +
      'fragment), a url already taken (`url`/`unique`, whoever has it).',
  })
  @ApiBody({ type: CreateWebsiteInput })
  @ApiEnvelope(WebsiteValidationResult)
  validate(@Ctx() ctx: RequestContext, @Body() body: unknown): Promise<WebsiteValidationResult> {
    return this.websites.validate(ctx, body);
  }
}
