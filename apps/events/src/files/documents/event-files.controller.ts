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
import { EventsFileDeleted } from '../dto/file-deleted.output';
import { EventFileOutput } from './dto/event-file.output';
import { EVENT_FILE_MAX_BYTES, EventFilesService } from './event-files.service';

@ApiTags('Event files')
@Controller('events/:id/files')
export class EventFilesController {
  constructor(private readonly files: EventFilesService) {}

  @Get()
  @ApiOperation({
    summary: 'E13 List the files of an event',
    description:
      'E13 Paged; `q` searches file names; sort by fileName, contentType, size, dateCreated ' +
      '(default: newest first). Unknown or foreign event: 404.',
  })
  @ApiEnvelope(EventFileOutput, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: PageQuery,
  ): Promise<Paged<EventFileOutput>> {
    return this.files.list(ctx, id, query);
  }

  @Post()
  @HttpCode(201)
  @UseInterceptors(documentUploadInterceptor({ maxBytes: EVENT_FILE_MAX_BYTES }))
  @ApiOperation({
    summary: 'E13 Upload a file of an event',
    description:
      'E13 multipart/form-data with the file in field `file`; any type, at most 20 MB (else ' +
      '413, nothing kept). The file name is sanitized. Unknown or foreign event: 404, nothing stored.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(EventFileOutput, 201)
  @ApiResponse({ status: 404, description: 'Unknown or foreign event' })
  @ApiResponse({ status: 413, description: 'The file is larger than 20 MB' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: StoredUpload | undefined,
  ): Promise<EventFileOutput> {
    return this.files.create(ctx, id, file);
  }

  @Get(':fileId')
  @RawResponse()
  @ApiOperation({
    summary: 'E14 Download a file of an event',
    description:
      'E14 The bytes with the stored Content-Type, `Content-Disposition: attachment` with the ' +
      'file name and an ETag (If-None-Match -> 304). Unknown or foreign event or file: 404.',
  })
  @ApiProduces('application/octet-stream')
  @ApiResponse({ status: 200, description: 'The file' })
  @ApiResponse({ status: 404, description: 'Unknown or foreign event or file' })
  async download(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('fileId') fileId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    return sendStoredFile(res, await this.files.open(ctx, id, fileId), ifNoneMatch);
  }

  @Delete(':fileId')
  @ApiOperation({
    summary: 'E14 Delete a file of an event',
    description: 'E14 The row and its bytes. Unknown or foreign event or file: 404.',
  })
  @ApiEnvelope(EventsFileDeleted)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('fileId') fileId: string,
  ): Promise<EventsFileDeleted> {
    return this.files.remove(ctx, id, fileId);
  }
}
