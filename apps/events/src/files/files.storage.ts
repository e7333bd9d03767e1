import { storageKey } from '@crm/storage';

/**
 * Storage layout of this service (keys in the FileStorage of @crm/files' fileStorageProvider: FILE_STORAGE_DIR or the S3 bucket);
 * everything of an event or a website lives under its prefix, so deleting one removes its files
 * with one deletePrefix:
 *   tenants/<tenant>/events/<eventId>/files/<fileId>
 *   tenants/<tenant>/events/<eventId>/images/<imageId>/{thumbnail,small,detail,original}.webp + manifest.json
 *   tenants/<tenant>/websites/<websiteId>/images/<imageId>/...
 * EventFile.storageKey holds the file's full key; EventImage/WebsiteImage.storageKey the image's folder.
 */
export const eventFilesPrefix = (tenantId: string, eventId: string) =>
  storageKey(tenantId, 'events', eventId);

export const websiteFilesPrefix = (tenantId: string, websiteId: string) =>
  storageKey(tenantId, 'websites', websiteId);

export const eventFileKey = (tenantId: string, eventId: string, fileId: string) =>
  storageKey(tenantId, 'events', eventId, 'files', fileId);

export const eventImageFolder = (tenantId: string, eventId: string, imageId: string) =>
  storageKey(tenantId, 'events', eventId, 'images', imageId);

export const websiteImageFolder = (tenantId: string, websiteId: string, imageId: string) =>
  storageKey(tenantId, 'websites', websiteId, 'images', imageId);
