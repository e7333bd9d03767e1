import {
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  HttpException,
  mixin,
  NestInterceptor,
  Type,
} from '@nestjs/common';
import type { MultipartFile } from '@fastify/multipart';
import { ApiBodyOptions } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
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

/** The file of an upload as the handler receives it. */
export interface ReceivedFile {
  fieldname: string;
  /** The name the client gave (UTF-8). */
  originalname: string;
  mimetype: string;
  size: number;
  /** The bytes, when the upload was read into memory (not when it was streamed to storage). */
  buffer: Buffer;
}

/** What happens to the file part: read into memory, or streamed elsewhere (documents). */
export interface FilePartHandler {
  receive(req: FastifyRequest, part: MultipartFile): Promise<ReceivedFile>;
  /** Undoes `receive` when the rest of the body turns out bad (a second file, a broken form). */
  discard?(file: ReceivedFile): Promise<void>;
}

export interface UploadOptions {
  /** Largest file accepted, in bytes: reading stops there and the answer is 413. */
  maxBytes: number;
  /** i18n key prefix of the error texts (default `files.upload`). */
  messages?: string;
}

const MB = 1024 * 1024;
export const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/**
 * The file name as the client gave it. Browsers and fetch's FormData escape CR, LF and `"` in a
 * multipart file name as %0D, %0A and %22 (HTML's form encoding); those three are undone, so the
 * name the sanitizer sees is the one the user picked.
 */
export function formFileName(sent: string): string {
  return sent.replace(/%0D|%0A|%22/gi, (m) => decodeURIComponent(m));
}

/** Raised when a streamed file passes the size limit. */
export class FileTooLarge extends Error {}

/** @fastify/multipart's and busboy's errors as our own, translated ones. */
export function uploadError(
  err: unknown,
  maxBytes: number,
  messages = DEFAULT_UPLOAD_MESSAGES,
): unknown {
  if (err instanceof AppException || err instanceof HttpException || !(err instanceof Error))
    return err;
  const code = (err as { code?: unknown }).code;
  if (err instanceof FileTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppException(ErrorCode.PAYLOAD_TOO_LARGE, `${messages}.tooLarge`, {
      max: megabytes(maxBytes),
    });
  }
  if (code === 'FST_FILES_LIMIT') {
    return new AppException(ErrorCode.BAD_REQUEST, `${messages}.oneFile`, { field: FILE_FIELD });
  }
  // System errors (storage) stay what they are; the parser's own mean a malformed form.
  if (typeof code === 'string' && !code.startsWith('FST_')) return err;
  return new AppException(ErrorCode.BAD_REQUEST, `${messages}.malformed`, {
    reason: err.message,
  });
}

function unexpectedField(field: string, messages: string): AppException {
  return new AppException(ErrorCode.BAD_REQUEST, `${messages}.unexpectedField`, {
    field,
    expected: FILE_FIELD,
  });
}

const RECEIVED = Symbol('crm.receivedFile');
type WithFile = FastifyRequest & { [RECEIVED]?: ReceivedFile };

/** The file of the upload (undefined when the request carried none), in a handler parameter. */
export const UploadedFile = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ReceivedFile | undefined =>
    ctx.switchToHttp().getRequest<WithFile>()[RECEIVED],
);

/** Reads every part and discards it: the client finishes sending and receives the answer. */
async function drain(part: MultipartFile): Promise<void> {
  part.file.resume();
  await new Promise((resolve) => part.file.once('close', resolve).once('end', resolve));
}

/**
 * Reads the multipart body: the one file in field `file` goes to `handle`, small text fields are
 * ignored, anything else is a 400. Without a multipart body the handler gets no file.
 */
export async function receiveFile(
  req: FastifyRequest,
  options: UploadOptions,
  handle: FilePartHandler,
): Promise<ReceivedFile | undefined> {
  const { maxBytes, messages = DEFAULT_UPLOAD_MESSAGES } = options;
  if (!req.isMultipart()) return undefined;
  let received: ReceivedFile | undefined;
  try {
    const parts = req.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 10 * 1024, parts: 12 },
    });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== FILE_FIELD) {
        await drain(part);
        throw unexpectedField(part.fieldname, messages);
      }
      received = await handle.receive(req, part);
    }
  } catch (err) {
    // Let the rest of the body arrive, so the client is answered rather than cut off.
    req.raw.resume();
    if (received) await handle.discard?.(received);
    throw uploadError(err, maxBytes, messages);
  }
  return received;
}

/** Keeps the file in memory (images: they are rendered right away). */
export const readIntoMemory: FilePartHandler = {
  async receive(_req, part) {
    const buffer = await part.toBuffer();
    return {
      fieldname: part.fieldname,
      originalname: formFileName(part.filename),
      mimetype: part.mimetype,
      size: buffer.length,
      buffer,
    };
  },
};

/**
 * The upload interceptor of a route: reads the file in field `file` (at most `maxBytes`, one
 * file, a few small text fields) with `handle`, by default into memory, and hands it to the
 * handler's `@UploadedFile()` parameter. Only upload routes carry it.
 */
export function uploadInterceptor(
  options: UploadOptions,
  handle: FilePartHandler = readIntoMemory,
): Type<NestInterceptor> {
  class UploadInterceptor implements NestInterceptor {
    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = context.switchToHttp().getRequest<WithFile>();
      req[RECEIVED] = await receiveFile(req, options, handle);
      return next.handle();
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
