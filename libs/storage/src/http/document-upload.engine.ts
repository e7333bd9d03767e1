import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
  mixin,
  NestInterceptor,
  Type,
} from '@nestjs/common';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FileStorage } from '../file-storage';
import { normalizeContentType } from './file-name';
import {
  FilePartHandler,
  FileTooLarge,
  formFileName,
  ReceivedFile,
  UploadOptions,
  uploadInterceptor,
} from './upload.interceptor';

/** What the engine adds to the received file: where the bytes went. */
export interface StoredUpload extends ReceivedFile {
  documentId: string;
  storageKey: string;
}

/** The parts of the request a key resolver reads: the headers (tenant) and the path's ids. */
export interface UploadRequest {
  headers: FastifyRequest['headers'];
  params: Record<string, string | undefined>;
}

/**
 * Where the upload of `documentId` goes: the app checks the owner named in the path (an unknown
 * or foreign one throws its 404, so nothing is stored) and answers the storage key.
 */
export type DocumentKeyResolver = (req: UploadRequest, documentId: string) => Promise<string>;

/**
 * Receives documents: streams the file part straight into the FileStorage (no buffering), under
 * a new document id. The owner is checked first (by `resolveKey`), so an unknown or foreign id
 * stores nothing. At the size limit the write is aborted (the storage removes its temporary
 * file) and the answer is 413.
 *
 * Apps provide it under this class as token, built with their storage and key resolver, and use
 * `documentUploadInterceptor` on the route.
 */
export class DocumentUploadEngine implements FilePartHandler {
  private readonly logger = new Logger('DocumentUpload');

  constructor(
    private readonly storage: FileStorage,
    private readonly resolveKey: DocumentKeyResolver,
  ) {}

  async receive(req: FastifyRequest, part: MultipartFile): Promise<StoredUpload> {
    // Registered before any await: the limit must not fire unseen, nor the parser's error. pipe()
    // alone does not pass errors on: a form that ends inside the file part ("Unexpected end of
    // form") left `body` open and the request waiting for ever. The error now ends the write (the
    // storage removes its temporary file) and becomes the 400 of a malformed form.
    const body = new PassThrough();
    // Its errors reach the caller through storage.put's pipeline, or as `failed` before that.
    body.on('error', () => undefined);
    let limited = false;
    let failed: Error | undefined;
    part.file.once('limit', () => {
      limited = true;
      body.destroy(new FileTooLarge('file too large'));
    });
    part.file.once('error', (err: Error) => {
      failed = err;
      body.destroy(err);
    });
    const documentId = randomUUID();
    let key: string;
    try {
      key = await this.resolveKey(req as unknown as UploadRequest, documentId);
    } catch (err) {
      part.file.resume(); // the rest of the body still has to be read
      throw err;
    }
    if (limited) throw new FileTooLarge('file too large');
    if (failed) throw failed;
    part.file.pipe(body);
    const stored = await this.storage.put(key, body, normalizeContentType(part.mimetype));
    return {
      fieldname: part.fieldname,
      originalname: formFileName(part.filename),
      mimetype: part.mimetype,
      size: stored.size,
      buffer: Buffer.alloc(0),
      documentId,
      storageKey: key,
    };
  }

  async discard(file: ReceivedFile): Promise<void> {
    const key = (file as Partial<StoredUpload>).storageKey;
    if (!key) return;
    await this.storage.delete(key).catch((err: Error) => {
      this.logger.warn(`could not remove ${key}: ${err.message}`);
    });
  }
}

/**
 * The upload interceptor of a document route, streaming with the app's DocumentUploadEngine
 * provider, at most `maxBytes`. The engine is a provider, so the interceptor is built here with it.
 */
export function documentUploadInterceptor(options: UploadOptions): Type<NestInterceptor> {
  @Injectable()
  class DocumentUploadInterceptor implements NestInterceptor {
    private readonly upload: NestInterceptor;

    constructor(@Inject(DocumentUploadEngine) engine: DocumentUploadEngine) {
      const Upload = uploadInterceptor(options, engine);
      this.upload = new Upload();
    }

    intercept(context: ExecutionContext, next: CallHandler) {
      return this.upload.intercept(context, next);
    }
  }
  return mixin(DocumentUploadInterceptor);
}
