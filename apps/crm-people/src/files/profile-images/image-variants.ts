import sharp, { Metadata } from 'sharp';
import { AppException, ErrorCode } from '@crm/errors';

/**
 * The sizes derived from an upload. Every size is WebP (smaller than JPEG/PNG at equal quality,
 * keeps PNG transparency, shown by every current browser and mail client), turned upright by its
 * EXIF orientation and stripped of metadata (camera, GPS). thumbnail and small are square crops
 * for avatars; detail and original keep the aspect ratio. Nothing is enlarged.
 */
export const IMAGE_SIZES = ['thumbnail', 'small', 'detail', 'original'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

const SPECS: Record<ImageSize, { px: number; square: boolean; quality: number }> = {
  thumbnail: { px: 64, square: true, quality: 80 },
  small: { px: 160, square: true, quality: 80 },
  detail: { px: 480, square: false, quality: 82 },
  original: { px: 2048, square: false, quality: 88 },
};

export const IMAGE_CONTENT_TYPE = 'image/webp';
/** Formats accepted, detected from the bytes (the client's Content-Type is not trusted). */
export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp'] as const;
/** Larger inputs could exhaust memory when decoded (a 5 MB PNG may hold gigapixels). */
export const MAX_INPUT_PIXELS = 100_000_000;

export interface ImageVariant {
  size: ImageSize;
  width: number;
  height: number;
  contentType: string;
  data: Buffer;
}

const MEDIA_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  heif: 'image/heif',
  tiff: 'image/tiff',
  avif: 'image/avif',
};

function unsupported(detected: string): AppException {
  return new AppException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'files.image.unsupportedType', {
    type: detected,
  });
}

/** Checks the bytes are a JPEG, PNG or WebP image of a decodable size. */
export async function inspectImage(
  data: Buffer,
): Promise<{ format: string; width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(data).metadata();
  } catch {
    throw unsupported('unknown');
  }
  const format = meta.format ?? 'unknown';
  if (!(ACCEPTED_FORMATS as readonly string[]).includes(format)) {
    throw unsupported(MEDIA_TYPES[format] ?? format);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > MAX_INPUT_PIXELS) {
    throw new AppException(ErrorCode.PAYLOAD_TOO_LARGE, 'files.image.tooManyPixels', {
      max: `${MAX_INPUT_PIXELS / 1_000_000} MP`,
    });
  }
  return { format, width, height };
}

/** Renders every size; a damaged or incomplete image is a 400. */
export async function renderVariants(data: Buffer): Promise<ImageVariant[]> {
  const { width, height } = await inspectImage(data);
  const base = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
  try {
    return await Promise.all(
      IMAGE_SIZES.map(async (size) => {
        const spec = SPECS[size];
        const { data: out, info } = await base
          .clone()
          // Squares are cropped to the salient region and stay square below px (no enlarging);
          // the others fit inside px x px (longest side <= px), never enlarged.
          .resize(
            spec.square
              ? (() => {
                  const side = Math.min(spec.px, width, height);
                  return {
                    width: side,
                    height: side,
                    fit: 'cover',
                    position: sharp.strategy.attention,
                  };
                })()
              : { width: spec.px, height: spec.px, fit: 'inside', withoutEnlargement: true },
          )
          .webp({ quality: spec.quality })
          .toBuffer({ resolveWithObject: true });
        return {
          size,
          width: info.width,
          height: info.height,
          contentType: IMAGE_CONTENT_TYPE,
          data: out,
        };
      }),
    );
  } catch {
    throw new AppException(ErrorCode.BAD_REQUEST, 'files.image.unreadable');
  }
}
