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
  UploadedFile,
  documentUploadInterceptor,
  sendStoredFile,
} from '@crm/storage';
import type { StoredUpload } from '@crm/storage';
import { CompanyFileDeleted } from '../dto/file-deleted.output';
import { CompanyDocument } from './dto/company-document.output';
import { DOCUMENT_MAX_BYTES, DocumentsService } from './documents.service';

@ApiTags('Documents')
@Controller('companies/:id/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @ApiOperation({
    summary: 'C31 List the documents of a company',
    description:
      'C31 Paged; `q` searches file names; sort by fileName, contentType, size, dateCreated ' +
      '(default: newest first). Unknown or foreign company: 404.',
  })
  @ApiEnvelope(CompanyDocument, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: PageQuery,
  ): Promise<Paged<CompanyDocument>> {
    return this.documents.list(ctx, id, query);
  }

  @Post()
  @HttpCode(201)
  @UseInterceptors(documentUploadInterceptor({ maxBytes: DOCUMENT_MAX_BYTES }))
  @ApiOperation({
    summary: 'C31 Upload a document of a company',
    description:
      'C31 multipart/form-data with the file in field `file`; any type, at most 20 MB (else ' +
      '413: the upload is streamed into storage and cut off there, nothing kept). The file ' +
      'name is sanitized (path, control and reserved characters removed). Unknown or foreign ' +
      'company: 404, nothing stored.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(CompanyDocument, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign company' })
  @ApiResponse({ status: 413, description: 'The file is larger than 20 MB' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: StoredUpload | undefined,
  ): Promise<CompanyDocument> {
    return this.documents.create(ctx, id, file);
  }

  @Get(':documentId')
  @RawResponse()
  @ApiOperation({
    summary: 'C32 Download a document',
    description:
      'C32 The bytes with the stored Content-Type, `Content-Disposition: attachment` with the ' +
      'file name (RFC 5987 `filename*` for non-ASCII names) and an ETag (If-None-Match -> 304). ' +
      'Unknown or foreign company or document: 404.',
  })
  @ApiProduces('application/octet-stream')
  @ApiResponse({ status: 200, description: 'The document' })
  @ApiResponse({ status: 404, description: 'Unknown or foreign company or document' })
  async download(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('documentId') documentId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    return sendStoredFile(res, await this.documents.open(ctx, id, documentId), ifNoneMatch);
  }

  @Delete(':documentId')
  @ApiOperation({
    summary: 'C32 Delete a document',
    description: 'C32 The row and its bytes. Unknown or foreign company or document: 404.',
  })
  @ApiEnvelope(CompanyFileDeleted)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('documentId') documentId: string,
  ): Promise<CompanyFileDeleted> {
    return this.documents.remove(ctx, id, documentId);
  }
}
