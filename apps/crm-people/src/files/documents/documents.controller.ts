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
import { DeletedFile, PersonDocument } from './dto/person-document.dto';
import { DOCUMENT_MAX_BYTES, DocumentsService } from './documents.service';

@ApiTags('Documents')
@Controller('people/:id/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @ApiOperation({
    summary: 'P22 List the documents of a person',
    description:
      'Paged; `q` searches file names; sort by fileName, contentType, size, dateCreated.',
  })
  @ApiEnvelope(PersonDocument, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: PageQuery,
  ): Promise<Paged<PersonDocument>> {
    return this.documents.list(ctx, id, query);
  }

  @Post()
  @HttpCode(201)
  @UseInterceptors(documentUploadInterceptor({ maxBytes: DOCUMENT_MAX_BYTES }))
  @ApiOperation({
    summary: 'P22 Upload a document of a person',
    description:
      'multipart/form-data with the file in field `file`; any type, at most 20 MB (else 413). ' +
      'The file name is sanitized (path, control and reserved characters removed).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(PersonDocument, 201)
  @ApiResponse({ status: 413, description: 'The file is larger than 20 MB' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: StoredUpload | undefined,
  ): Promise<PersonDocument> {
    return this.documents.create(ctx, id, file);
  }

  @Get(':documentId')
  @RawResponse()
  @ApiOperation({
    summary: 'P23 Download a document',
    description:
      'The bytes with the stored Content-Type, `Content-Disposition: attachment` with the file ' +
      'name (RFC 5987 `filename*` for non-ASCII names) and an ETag (If-None-Match -> 304).',
  })
  @ApiProduces('application/octet-stream')
  @ApiResponse({ status: 200, description: 'The document' })
  @ApiResponse({ status: 404, description: 'Unknown person or document' })
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
  @ApiOperation({ summary: 'P23 Delete a document' })
  @ApiEnvelope(DeletedFile)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('documentId') documentId: string,
  ): Promise<DeletedFile> {
    return this.documents.remove(ctx, id, documentId);
  }
}
