import {
  CallHandler,
  ExecutionContext,
  HttpException,
  mixin,
  NestInterceptor,
  Type,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { MulterOptions } from '@nestjs/platform-express/multer/interfaces/multer-options.interface';
import { ApiBodyOptions } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { AppException, ErrorCode } from '@crm/errors';

/** The multipart field that carries the file (API.md: "the file in field `file`"). */
export const FILE_FIELD = 'file';

/**
 * Where the texts of upload errors live in the app's catalogue: `<prefix>.tooLarge` ({max}),
 * `.unexpectedField` ({field}, {expected}), `.oneFile` ({field}) and `.malformed` ({reason}).
 * Each app ships them in its own namespace, so the lib carries no texts.
 */
export const DEFAULT_UPLOAD_MESSAGES = 'files.upload';

export interface UploadOptions {
  /** Largest file accepted, in bytes: multer stops reading there and the answer is 413. */
  maxBytes: number;
  /** i18n key prefix of the error texts (default `files.upload`). */
  messages?: string;
  /** Further multer options, e.g. a streaming `storage` engine. */
  multer?: MulterOptions;
}

const MB = 1024 * 1024;
export const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** multer's errors (already HttpExceptions from Nest) as our own, translated ones. */
export function uploadError(
  err: unknown,
  maxBytes: number,
  messages = DEFAULT_UPLOAD_MESSAGES,
): unknown {
  if (!(err instanceof HttpException)) return err;
  const status = err.getStatus();
  const message = err.message;
  if (status === 413) {
    return new AppException(ErrorCode.PAYLOAD_TOO_LARGE, `${messages}.tooLarge`, {
      max: megabytes(maxBytes),
    });
  }
  if (status !== 400) return err;
  const unexpected = /^Unexpected file field(?: - (.*))?$/.exec(message);
  if (unexpected) {
    return new AppException(ErrorCode.BAD_REQUEST, `${messages}.unexpectedField`, {
      field: unexpected[1] ?? '',
      expected: FILE_FIELD,
    });
  }
  if (/^Too many files/.test(message)) {
    return new AppException(ErrorCode.BAD_REQUEST, `${messages}.oneFile`, { field: FILE_FIELD });
  }
  return new AppException(ErrorCode.BAD_REQUEST, `${messages}.malformed`, { reason: message });
}

/**
 * Nest's FileInterceptor for the field `file`, limited to `maxBytes` (multer stops reading at the
 * limit and answers 413; nothing beyond it is buffered or stored), one file, a few small text
 * fields, UTF-8 file names. Without a multer `storage` the file is held in memory, at most
 * `maxBytes`.
 */
export function uploadInterceptor(options: UploadOptions): Type<NestInterceptor> {
  const { maxBytes, messages = DEFAULT_UPLOAD_MESSAGES } = options;
  const Base = FileInterceptor(FILE_FIELD, {
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 10 * 1024, parts: 12 },
    // Browsers send UTF-8 names; busboy would otherwise read them as Latin-1.
    defParamCharset: 'utf8',
    ...options.multer,
  });
  class UploadInterceptor extends Base {
    override async intercept(
      context: ExecutionContext,
      next: CallHandler,
    ): Promise<Observable<unknown>> {
      try {
        return await super.intercept(context, next);
      } catch (err) {
        throw uploadError(err, maxBytes, messages);
      }
    }
  }
  return mixin(UploadInterceptor);
}

/** OpenAPI body of an upload: one binary part named `file`. */
export const FILE_UPLOAD_BODY: ApiBodyOptions = {
  schema: {
    type: 'object',
    required: [FILE_FIELD],
    properties: { [FILE_FIELD]: { type: 'string', format: 'binary' } },
  },
};
