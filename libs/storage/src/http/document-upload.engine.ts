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
import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FileStorage } from '../file-storage';
import { normalizeContentType } from './file-name';
import { uploadInterceptor, UploadOptions } from './upload.interceptor';

/** What the engine adds to multer's file: where the bytes went. */
export interface StoredUpload extends Express.Multer.File {
  documentId: string;
  storageKey: string;
}

/**
 * Where the upload of `documentId` goes: the app checks the owner named in the path (an unknown
 * or foreign one throws its 404, so nothing is stored) and answers the storage key.
 */
export type DocumentKeyResolver = (req: Request, documentId: string) => Promise<string>;

class LimitReached extends Error {}

/**
 * multer storage engine for documents: streams the part straight into the FileStorage (no
 * buffering), under a new document id. The owner is checked first (by `resolveKey`), so an
 * unknown or foreign id stores nothing. At multer's size limit the write is aborted (the storage
 * removes its temporary file) and multer answers 413.
 *
 * Apps provide it under this class as token, built with their storage and key resolver, and use
 * `documentUploadInterceptor` on the route.
 */
export class DocumentUploadEngine implements StorageEngine {
  private readonly logger = new Logger('DocumentUpload');

  constructor(
    private readonly storage: FileStorage,
    private readonly resolveKey: DocumentKeyResolver,
  ) {}

  _handleFile(
    req: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<StoredUpload>) => void,
  ): void {
    // Registered before any await: the limit must not fire unseen.
    const body = new PassThrough();
    let limited = false;
    const onLimit = () => {
      limited = true;
      body.destroy(new LimitReached('file too large'));
    };
    file.stream.once('limit', onLimit);
    this.store(req, file, body, () => limited).then(
      (info) => callback(null, info),
      (err: unknown) => {
        // Let busboy go on (multer drains the request before answering).
        file.stream.unpipe(body);
        file.stream.resume();
        callback(err);
      },
    );
  }

  private async store(
    req: Request,
    file: Express.Multer.File,
    body: PassThrough,
    limited: () => boolean,
  ): Promise<Partial<StoredUpload>> {
    const documentId = randomUUID();
    const key = await this.resolveKey(req, documentId);
    if (limited()) throw new LimitReached('file too large');
    file.stream.pipe(body);
    const stored = await this.storage.put(key, body, normalizeContentType(file.mimetype));
    return { documentId, storageKey: key, size: stored.size };
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void) {
    const key = (file as Partial<StoredUpload>).storageKey;
    if (!key) return callback(null);
    this.storage.delete(key).then(
      () => callback(null),
      (err: Error) => {
        this.logger.warn(`could not remove ${key}: ${err.message}`);
        callback(null);
      },
    );
  }
}

/**
 * The upload interceptor of a document route: multer with the app's DocumentUploadEngine
 * provider, at most `maxBytes`. The engine is a provider, so the multer interceptor is built
 * here with it (composition: subclassing Nest's mixin would inherit its constructor's injection
 * metadata).
 */
export function documentUploadInterceptor(
  options: Omit<UploadOptions, 'multer'>,
): Type<NestInterceptor> {
  @Injectable()
  class DocumentUploadInterceptor implements NestInterceptor {
    private readonly upload: NestInterceptor;

    constructor(@Inject(DocumentUploadEngine) engine: DocumentUploadEngine) {
      const Upload = uploadInterceptor({ ...options, multer: { storage: engine } });
      this.upload = new Upload();
    }

    intercept(context: ExecutionContext, next: CallHandler) {
      return this.upload.intercept(context, next);
    }
  }
  return mixin(DocumentUploadInterceptor);
}
