import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { AppException, isUuid } from '@crm/errors';
import { readRequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { DocumentsRepository } from '../documents/documents.repository';
import { documentKey } from '../files.storage';
import { normalizeContentType } from './file-name';

/** What the engine adds to multer's file: where the bytes went. */
export interface StoredUpload extends Express.Multer.File {
  documentId: string;
  storageKey: string;
}

class LimitReached extends Error {}

/**
 * multer storage engine for documents: streams the part straight into the FileStorage (no
 * buffering), under a new document id of the person named in the path. The person is checked
 * first, so an unknown or foreign id stores nothing. At multer's size limit the write is aborted
 * (the storage removes its temporary file) and multer answers 413.
 */
@Injectable()
export class DocumentUploadEngine implements StorageEngine {
  private readonly logger = new Logger('DocumentUpload');

  constructor(
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly repo: DocumentsRepository,
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
    const ctx = readRequestContext(req.headers);
    const personId = String(req.params.id ?? '');
    if (!isUuid(personId) || !(await this.repo.personExists(ctx.tenantId, personId))) {
      throw AppException.notFound('Person', personId);
    }
    if (limited()) throw new LimitReached('file too large');
    const documentId = randomUUID();
    const key = documentKey(ctx.tenantId, personId, documentId);
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
