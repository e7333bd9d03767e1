import {
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
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
import { RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  FILE_UPLOAD_BODY,
  ReceivedFile,
  UploadedFile,
  sendStoredFile,
  uploadInterceptor,
} from '@crm/storage';
import { CompanyFileDeleted } from '../dto/file-deleted.output';
import { CompanyLogo } from './dto/company-logo.output';
import { DEFAULT_LOGO_SIZE, LOGO_MAX_BYTES, LOGO_SIZES } from './logo-rendering';
import { LogoService } from './logo.service';

@ApiTags('Logo')
@Controller('companies/:id/logo')
export class LogoController {
  constructor(private readonly logos: LogoService) {}

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: 'C28 The bytes of the logo of a company',
    description:
      `C28 \`size\`: ${LOGO_SIZES.join(', ')} (default ${DEFAULT_LOGO_SIZE}; another value: 400). ` +
      'image/webp with an ETag (If-None-Match -> 304) and `Cache-Control: private, no-cache` ' +
      '(the address stays the same when the logo is replaced). The sizes and their dimensions: ' +
      'the answer of POST, or GraphQL companyLogo. No logo, unknown or foreign company: 404.',
  })
  @ApiQuery({ name: 'size', enum: LOGO_SIZES, required: false })
  @ApiProduces('image/webp')
  @ApiResponse({ status: 200, description: 'The image' })
  @ApiResponse({ status: 304, description: 'The copy named by If-None-Match is current' })
  @ApiResponse({ status: 400, description: 'Unknown size' })
  @ApiResponse({ status: 404, description: 'Unknown or foreign company, or no logo' })
  async image(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    // read on its own: other query parameters (cache busters such as ?v=) are left alone
    @Query('size') size: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    return sendStoredFile(res, await this.logos.open(ctx, id, size), ifNoneMatch);
  }

  @Post()
  @HttpCode(201)
  @UseInterceptors(uploadInterceptor({ maxBytes: LOGO_MAX_BYTES }))
  @ApiOperation({
    summary: 'C28 Upload the logo of a company (replaces the current one)',
    description:
      'C28 multipart/form-data, field `file`: a JPEG, PNG, WebP or SVG image (detected from the ' +
      'bytes, whatever the declared type; anything else 415), at most 5 MB (else 413, the ' +
      'upload is cut off there) and 100 megapixels. Every size is derived as WebP, transparency ' +
      'kept, upright, without metadata, never cropped: thumbnail (longest side 64), small (160), ' +
      'detail (480), original (at most 2048; an SVG is rendered at 2048). The previous logo is ' +
      'removed once the new one is in place. Answers the new sizes. Unknown or foreign company: 404.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(CompanyLogo, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign company' })
  @ApiResponse({ status: 413, description: 'Larger than 5 MB or 100 megapixels' })
  @ApiResponse({ status: 415, description: 'Not a JPEG, PNG, WebP or SVG image' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: ReceivedFile | undefined,
  ): Promise<CompanyLogo> {
    return this.logos.upload(ctx, id, file);
  }

  @Delete()
  @ApiOperation({
    summary: 'C28 Delete the logo of a company',
    description: 'C28 Its files go too. No logo, unknown or foreign company: 404.',
  })
  @ApiEnvelope(CompanyFileDeleted)
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<CompanyFileDeleted> {
    return this.logos.remove(ctx, id);
  }
}
