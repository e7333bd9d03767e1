import { DEFAULT_IMAGE_MAX_BYTES } from '@crm/files';
import type { ImageRendering } from '@crm/storage';

/**
 * The sizes derived from a logo upload, by @crm/storage: WebP (keeps transparency), upright,
 * without metadata. Logos keep their aspect ratio in every size (a wordmark must not be cropped
 * to a square): the longest side is at most the size's px, never enlarged. SVG is accepted and
 * rendered (a vector has no size of its own: at 2048 px, the original's limit); it is never
 * served as SVG, so no script in it can run.
 */
export const LOGO_SIZES = ['thumbnail', 'small', 'detail', 'original'] as const;
export type LogoSize = (typeof LOGO_SIZES)[number];
export const DEFAULT_LOGO_SIZE: LogoSize = 'original';

/** Largest upload accepted (C28). */
export const LOGO_MAX_BYTES = DEFAULT_IMAGE_MAX_BYTES;

export const LOGO_RENDERING: ImageRendering<LogoSize> = {
  sizes: LOGO_SIZES,
  specs: {
    thumbnail: { px: 64, quality: 85 },
    small: { px: 160, quality: 85 },
    detail: { px: 480, quality: 88 },
    original: { px: 2048, quality: 90 },
  },
  accepted: ['jpeg', 'png', 'webp', 'svg'],
  vectorPx: 2048,
  messages: 'files.image',
};
