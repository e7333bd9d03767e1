import { DEFAULT_IMAGE_MAX_BYTES } from '@crm/files';
import type { ImageRendering } from '@crm/storage';

/**
 * The sizes derived from an event or website image (@crm/storage: WebP, upright, without
 * metadata): a square thumbnail for lists, the others keep the aspect ratio (longest side).
 */
export const GALLERY_SIZES = ['thumbnail', 'small', 'detail', 'original'] as const;
export type GallerySize = (typeof GALLERY_SIZES)[number];

/** Largest upload accepted (E15, W14): 5 MB. */
export const GALLERY_MAX_BYTES = DEFAULT_IMAGE_MAX_BYTES;
/** Most images of one event or website. */
export const GALLERY_MAX_IMAGES = 50;

export const GALLERY_RENDERING: ImageRendering<GallerySize> = {
  sizes: GALLERY_SIZES,
  specs: {
    thumbnail: { px: 160, square: true, quality: 82 },
    small: { px: 480, quality: 85 },
    detail: { px: 1280, quality: 88 },
    original: { px: 2560, quality: 90 },
  },
  accepted: ['jpeg', 'png', 'webp'],
  messages: 'files.image',
};
