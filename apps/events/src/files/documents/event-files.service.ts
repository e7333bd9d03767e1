import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import { DEFAULT_DOCUMENT_MAX_BYTES, DocumentFiles } from '@crm/files';
import type { RequestContext } from '@crm/request-context';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { eventFileKey } from '../files.storage';
import type { EventFileOutput } from './dto/event-file.output';
import type { Tx } from '../../database/tx';
import { EventFilesRepository } from './event-files.repository';

/** Largest event file accepted (E13): 20 MB. */
export const EVENT_FILE_MAX_BYTES = DEFAULT_DOCUMENT_MAX_BYTES;

/** The 404 of an event the tenant does not have, as the files and images routes answer it. */
export const eventNotFound = (i18n: I18nService, ctx: RequestContext, id: string) =>
  AppException.notFound(i18n.t('files.resource.event', { lang: ctx.language }) as string, id);

/**
 * Files of an event (E13, E14): rows in EventFile, bytes in the FileStorage under
 * eventFilesPrefix; upload, list, download and delete are @crm/files' DocumentFiles.
 */
@Injectable()
export class EventFilesService extends DocumentFiles<EventFileOutput, Tx> {
  constructor(
    repo: EventFilesRepository,
    i18n: I18nService,
    @Inject(FILE_STORAGE) storage: FileStorage,
  ) {
    super(storage, repo, {
      name: 'EventFiles',
      key: eventFileKey,
      ownerNotFound: (ctx, id) => eventNotFound(i18n, ctx, id),
      documentNotFound: (ctx, id) =>
        AppException.notFound(i18n.t('files.resource.file', { lang: ctx.language }) as string, id),
    });
  }
}
