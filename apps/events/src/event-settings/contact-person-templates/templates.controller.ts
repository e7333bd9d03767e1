import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Paged, RawResponse } from '@crm/envelope';
import { PageQuery } from '@crm/paging';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  FILE_UPLOAD_BODY,
  ReceivedFile,
  UploadedFile,
  sendStoredFile,
  uploadInterceptor,
} from '@crm/storage';
import { ContactPersonTemplateInput } from './dto/template.input';
import { ContactPersonTemplate, TemplateImage, TemplateImageDeleted } from './dto/template.output';
import {
  DEFAULT_TEMPLATE_IMAGE_SIZE,
  TEMPLATE_IMAGE_MAX_BYTES,
  TEMPLATE_IMAGE_SIZES,
} from './template-image-rendering';
import { TemplatesService } from './templates.service';

const NOT_FOUND = { status: 404, description: 'Unknown or foreign template' };
const FIELDS_DOC =
  'name (required, at most 200), salutation, title, firstname, lastname, position, email ' +
  '(checked), phone. A template is copied into an event when the event uses it: changing or ' +
  'deleting the template later leaves events as they are.';

@ApiTags('Event settings')
@Controller('event-settings/contact-person-templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @ApiOperation({
    summary: 'ES4 Get a list: contact person templates',
    description:
      'ES4 `contact-person-templates`. Paged; `q` searches name, first and last name and ' +
      'e-mail; `sort` by name (default), lastname, dateCreated, dateModified.',
  })
  @ApiEnvelope(ContactPersonTemplate, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: PageQuery,
  ): Promise<Paged<ContactPersonTemplate>> {
    return this.templates.list(ctx, query);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'ES5 Create a contact person template',
    description: `ES5. ${FIELDS_DOC}`,
  })
  @ApiBody({ type: ContactPersonTemplateInput })
  @ApiEnvelope(ContactPersonTemplate, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: unknown): Promise<ContactPersonTemplate> {
    return this.templates.create(ctx, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'ES5 Read a contact person template', description: 'ES5 (ours).' })
  @ApiEnvelope(ContactPersonTemplate)
  @ApiResponse(NOT_FOUND)
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ContactPersonTemplate> {
    return this.templates.get(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'ES5 Update a contact person template',
    description: `ES5. PUT replaces every field (absent optional fields become null). ${FIELDS_DOC}`,
  })
  @ApiBody({ type: ContactPersonTemplateInput })
  @ApiEnvelope(ContactPersonTemplate)
  @ApiResponse(NOT_FOUND)
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<ContactPersonTemplate> {
    return this.templates.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'ES5 Delete a contact person template',
    description:
      'ES5. Answers the deleted template; its image goes too. Events that were filled from it ' +
      'keep their contact person; an event default naming it reads as null afterwards.',
  })
  @ApiEnvelope(ContactPersonTemplate)
  @ApiResponse(NOT_FOUND)
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ContactPersonTemplate> {
    return this.templates.delete(ctx, id);
  }

  @Post(':id/copy')
  @HttpCode(201)
  @ApiOperation({
    summary: 'ES6 Copy a contact person template',
    description:
      'ES6. A new template (new id) with the same fields, named "<name> (copy)" in the ' +
      "caller's language (Accept-Language), and a copy of the image (its own files).",
  })
  @ApiEnvelope(ContactPersonTemplate, 201)
  @ApiResponse(NOT_FOUND)
  copy(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ContactPersonTemplate> {
    return this.templates.copy(ctx, id);
  }

  @Get(':id/image')
  @RawResponse()
  @ApiOperation({
    summary: 'ES7 Get the image of a contact person template',
    description:
      `ES7. The bytes of one size: \`size\` ${TEMPLATE_IMAGE_SIZES.join(', ')} (default ` +
      `${DEFAULT_TEMPLATE_IMAGE_SIZE}; another value: 400). image/webp with an ETag ` +
      '(If-None-Match -> 304) and `Cache-Control: private, no-cache`. No image, unknown or ' +
      'foreign template: 404. The sizes and their dimensions: the answer of POST, or GraphQL ' +
      'contactPersonTemplateImage.',
  })
  @ApiQuery({ name: 'size', enum: TEMPLATE_IMAGE_SIZES, required: false })
  @ApiProduces('image/webp')
  @ApiResponse({ status: 200, description: 'The image' })
  @ApiResponse({ status: 304, description: 'The copy named by If-None-Match is current' })
  @ApiResponse({ status: 400, description: 'Unknown size' })
  @ApiResponse({ status: 404, description: 'Unknown or foreign template, or no image' })
  async image(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query('size') size: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    return sendStoredFile(res, await this.templates.openImage(ctx, id, size), ifNoneMatch);
  }

  @Post(':id/image')
  @HttpCode(201)
  @UseInterceptors(uploadInterceptor({ maxBytes: TEMPLATE_IMAGE_MAX_BYTES }))
  @ApiOperation({
    summary: 'ES7 Upload the image of a contact person template (replaces it)',
    description:
      'ES7 multipart/form-data, field `file`: a JPEG, PNG or WebP image (detected from the ' +
      'bytes; anything else 415), at most 5 MB (else 413). Every size is derived as WebP, ' +
      'upright, without metadata: thumbnail (64, square), small (160, square), detail (480), ' +
      'original (at most 2048). The previous image is removed once the new one is in place.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(TemplateImage, 201)
  @ApiResponse(NOT_FOUND)
  @ApiResponse({ status: 413, description: 'Larger than 5 MB' })
  @ApiResponse({ status: 415, description: 'Not a JPEG, PNG or WebP image' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: ReceivedFile | undefined,
  ): Promise<TemplateImage> {
    return this.templates.uploadImage(ctx, id, file);
  }

  @Delete(':id/image')
  @ApiOperation({
    summary: 'ES7 Delete the image of a contact person template',
    description: 'ES7. Its files go too. No image, unknown or foreign template: 404.',
  })
  @ApiEnvelope(TemplateImageDeleted)
  removeImage(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<TemplateImageDeleted> {
    return this.templates.removeImage(ctx, id);
  }
}
