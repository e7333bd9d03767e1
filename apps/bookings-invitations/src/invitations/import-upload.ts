import {
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  NestInterceptor,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { AppException, ErrorCode } from '@crm/errors';
import { FILE_FIELD, formFileName, uploadError } from '@crm/storage/uploads';
import { IMPORT_MAX_BYTES } from './import-file';
import type { UploadedImport } from './invitation-import.service';

const MESSAGES = 'invitations.upload';
const UPLOAD = Symbol('crm.invitationImport');

interface ImportForm {
  file?: UploadedImport;
  eventId?: string;
}
type WithForm = FastifyRequest & { [UPLOAD]?: ImportForm };

/**
 * Reads an import form (IN13, IN14): the file in field `file` (at most 10 MB, else 413) and the
 * text field `eventId` (also accepted as `?eventId=`). A body that is not multipart carries none.
 */
export class ImportUploadInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<WithForm>();
    const form: ImportForm = {};
    const query = (req.query as Record<string, unknown> | undefined)?.eventId;
    if (typeof query === 'string') form.eventId = query;
    if (req.isMultipart()) {
      try {
        const parts = req.parts({
          limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
        });
        for await (const part of parts) {
          if (part.type === 'file') {
            if (part.fieldname !== FILE_FIELD) {
              part.file.resume();
              throw new AppException(ErrorCode.BAD_REQUEST, `${MESSAGES}.unexpectedField`, {
                field: part.fieldname,
                expected: FILE_FIELD,
              });
            }
            const buffer = await part.toBuffer();
            form.file = {
              buffer,
              name: formFileName(part.filename ?? ''),
              mimetype: part.mimetype ?? '',
            };
          } else if (part.fieldname === 'eventId' && typeof part.value === 'string') {
            form.eventId = part.value.trim();
          }
        }
      } catch (err) {
        req.raw.resume();
        throw uploadError(err, IMPORT_MAX_BYTES, MESSAGES);
      }
    }
    req[UPLOAD] = form;
    return next.handle();
  }
}

/** The import form of the request (see ImportUploadInterceptor). */
export const ImportForm = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ImportForm =>
    ctx.switchToHttp().getRequest<WithForm>()[UPLOAD] ?? {},
);
