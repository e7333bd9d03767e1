import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { DOCUMENT_MAX_BYTES } from '../documents/documents.service';
import { DocumentUploadEngine } from './document-upload.engine';
import { uploadInterceptor } from './upload.interceptor';

/**
 * P22 uploads: streamed into storage by the engine, at most 20 MB. The engine is a provider, so
 * the multer interceptor is built here with it (composition: subclassing Nest's mixin would
 * inherit its constructor's injection metadata).
 */
@Injectable()
export class DocumentUploadInterceptor implements NestInterceptor {
  private readonly upload: NestInterceptor;

  constructor(engine: DocumentUploadEngine) {
    const Upload = uploadInterceptor(DOCUMENT_MAX_BYTES, { storage: engine });
    this.upload = new Upload();
  }

  intercept(context: ExecutionContext, next: CallHandler) {
    return this.upload.intercept(context, next);
  }
}
