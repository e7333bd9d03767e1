import type { ImageRendering } from '@crm/storage';

/**
 * The sizes derived from a profile image upload (rendered by @crm/storage: WebP, upright,
 * without metadata, never enlarged). thumbnail and small are square crops for avatars; detail
 * and original keep the aspect ratio. JPEG, PNG and WebP are accepted, detected from the bytes
 * (the client's Content-Type is not trusted), up to the default 100 megapixels.
 */
export const IMAGE_SIZES = ['thumbnail', 'small', 'detail', 'original'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

export const PROFILE_IMAGE_RENDERING: ImageRendering<ImageSize> = {
  sizes: IMAGE_SIZES,
  specs: {
    thumbnail: { px: 64, square: true, quality: 80 },
    small: { px: 160, square: true, quality: 80 },
    detail: { px: 480, quality: 82 },
    original: { px: 2048, quality: 88 },
  },
  accepted: ['jpeg', 'png', 'webp'],
  messages: 'files.image',
};
