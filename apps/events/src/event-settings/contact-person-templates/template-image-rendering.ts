import { DEFAULT_IMAGE_MAX_BYTES } from '@crm/files';
import type { ImageRendering } from '@crm/storage';
import { storageKey } from '@crm/storage';

/**
 * The sizes derived from a template image (a portrait of the contact person), as crm-people's
 * profile images: WebP, upright, without metadata, never enlarged; thumbnail and small are square
 * crops for avatars, detail and original keep the aspect ratio. JPEG, PNG and WebP, detected from
 * the bytes, at most 5 MB.
 */
export const TEMPLATE_IMAGE_SIZES = ['thumbnail', 'small', 'detail', 'original'] as const;
export type TemplateImageSizeName = (typeof TEMPLATE_IMAGE_SIZES)[number];
export const DEFAULT_TEMPLATE_IMAGE_SIZE: TemplateImageSizeName = 'original';
export const TEMPLATE_IMAGE_MAX_BYTES = DEFAULT_IMAGE_MAX_BYTES;

export const TEMPLATE_IMAGE_RENDERING: ImageRendering<TemplateImageSizeName> = {
  sizes: TEMPLATE_IMAGE_SIZES,
  specs: {
    thumbnail: { px: 64, square: true, quality: 80 },
    small: { px: 160, square: true, quality: 80 },
    detail: { px: 480, quality: 82 },
    original: { px: 2048, quality: 88 },
  },
  accepted: ['jpeg', 'png', 'webp'],
  messages: 'files.image',
};

/**
 * Storage layout: everything of a template under templateFilesPrefix, so deleting it removes its
 * files with one deletePrefix:
 *   tenants/<tenant>/contact-person-templates/<id>/image/<version>/{sizes}.webp, manifest.json
 */
export const templateFilesPrefix = (tenantId: string, templateId: string) =>
  storageKey(tenantId, 'contact-person-templates', templateId);

export const templateImageFolder = (tenantId: string, templateId: string, version: string) =>
  storageKey(tenantId, 'contact-person-templates', templateId, 'image', version);

export const templateImageUrl = (templateId: string, size: TemplateImageSizeName) =>
  `/v1/crm/event-settings/contact-person-templates/${templateId}/image?size=${size}`;
