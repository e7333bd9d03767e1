import {
  DEFAULT_MAX_INPUT_PIXELS,
  ImageRendering,
  ImageVariant as StorageImageVariant,
  renderVariants as renderWith,
  VARIANT_CONTENT_TYPE,
} from '@crm/storage';

/**
 * The sizes derived from a profile image upload (rendered by @crm/storage: WebP, upright,
 * without metadata, never enlarged). thumbnail and small are square crops for avatars; detail
 * and original keep the aspect ratio.
 */
export const IMAGE_SIZES = ['thumbnail', 'small', 'detail', 'original'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

export const IMAGE_CONTENT_TYPE = VARIANT_CONTENT_TYPE;
/** Formats accepted, detected from the bytes (the client's Content-Type is not trusted). */
export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp'] as const;
export const MAX_INPUT_PIXELS = DEFAULT_MAX_INPUT_PIXELS;

export type ImageVariant = StorageImageVariant<ImageSize>;

export const PROFILE_IMAGE_RENDERING: ImageRendering<ImageSize> = {
  sizes: IMAGE_SIZES,
  specs: {
    thumbnail: { px: 64, square: true, quality: 80 },
    small: { px: 160, square: true, quality: 80 },
    detail: { px: 480, quality: 82 },
    original: { px: 2048, quality: 88 },
  },
  accepted: ACCEPTED_FORMATS,
  maxInputPixels: MAX_INPUT_PIXELS,
  messages: 'files.image',
};

/** Renders every size; a damaged or incomplete image is a 400, another format 415. */
export const renderVariants = (data: Buffer): Promise<ImageVariant[]> =>
  renderWith(data, PROFILE_IMAGE_RENDERING);
