import sharp, { Metadata, ResizeOptions } from 'sharp';
import { AppException, ErrorCode } from '@crm/errors';

/** One derived size: the longest side at most `px`; `square` crops to the salient region. */
export interface VariantSpec {
  px: number;
  square?: boolean;
  quality: number;
}

/**
 * How an app derives its images (profile images, logos). Every size is WebP (smaller than
 * JPEG/PNG at equal quality, keeps PNG transparency, shown by every current browser and mail
 * client), turned upright by its EXIF orientation and stripped of metadata (camera, GPS). Raster
 * inputs are never enlarged; a vector input (SVG, when accepted) is rendered so that its longest
 * side is `vectorPx` and the sizes are taken from that.
 */
export interface ImageRendering<S extends string> {
  sizes: readonly S[];
  specs: Record<S, VariantSpec>;
  /** Formats accepted as sharp names them (jpeg, png, webp, svg...), detected from the bytes. */
  accepted: readonly string[];
  /** Larger inputs could exhaust memory when decoded (a 5 MB PNG may hold gigapixels). */
  maxInputPixels?: number;
  /** Longest side a vector input is rendered at (default 2048). */
  vectorPx?: number;
  /**
   * i18n key prefix of the error texts (default `files.image`): `.unsupportedType` ({type}),
   * `.unreadable`, `.tooManyPixels` ({max}). Each app ships them in its own namespace.
   */
  messages?: string;
}

export const DEFAULT_IMAGE_MESSAGES = 'files.image';
export const DEFAULT_MAX_INPUT_PIXELS = 100_000_000;
export const VARIANT_CONTENT_TYPE = 'image/webp';
const DEFAULT_VECTOR_PX = 2048;
/** sharp's density range for vector inputs (DPI). */
const DENSITY = { min: 1, max: 100_000, base: 72 };

export interface ImageVariant<S extends string = string> {
  size: S;
  width: number;
  height: number;
  contentType: string;
  data: Buffer;
}

export interface InspectedImage {
  format: string;
  width: number;
  height: number;
  /** Density to decode at: vector inputs are rendered to the wanted size, rasters as they are. */
  density?: number;
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
  pdf: 'application/pdf',
};

function unsupported(messages: string, detected: string): AppException {
  return new AppException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `${messages}.unsupportedType`, {
    type: detected,
  });
}

/**
 * Checks the bytes are an image of an accepted format (whatever the client declared) and of a
 * decodable size; answers its format and the size it will be decoded at.
 */
export async function inspectImage(
  data: Buffer,
  rendering: Pick<ImageRendering<string>, 'accepted' | 'maxInputPixels' | 'vectorPx' | 'messages'>,
): Promise<InspectedImage> {
  const messages = rendering.messages ?? DEFAULT_IMAGE_MESSAGES;
  const maxPixels = rendering.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  let meta: Metadata;
  try {
    // Headers only, nothing decoded: the pixel limit is checked below, on the size to decode
    // (a vector may declare any size; it is rendered at vectorPx).
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported(messages, 'unknown');
  }
  const format = meta.format ?? 'unknown';
  if (!rendering.accepted.includes(format)) {
    throw unsupported(messages, MEDIA_TYPES[format] ?? format);
  }
  let width = meta.width ?? 0;
  let height = meta.height ?? 0;
  let density: number | undefined;
  if (format === 'svg') {
    // A vector has no pixels of its own: render it at the density that gives the wanted size.
    const longest = Math.max(width, height, 1);
    const target = rendering.vectorPx ?? DEFAULT_VECTOR_PX;
    const base = meta.density ?? DENSITY.base;
    density = Math.min(DENSITY.max, Math.max(DENSITY.min, (base * target) / longest));
    width = Math.max(1, Math.round((width * density) / base));
    height = Math.max(1, Math.round((height * density) / base));
  }
  if (width * height > maxPixels) {
    throw new AppException(ErrorCode.PAYLOAD_TOO_LARGE, `${messages}.tooManyPixels`, {
      max: `${maxPixels / 1_000_000} MP`,
    });
  }
  return { format, width, height, density };
}

function resizeOf(spec: VariantSpec, width: number, height: number): ResizeOptions {
  if (spec.square) {
    // Squares are cropped to the salient region and stay square below px (no enlarging).
    const side = Math.min(spec.px, width, height);
    return { width: side, height: side, fit: 'cover', position: sharp.strategy.attention };
  }
  // The others fit inside px x px (longest side <= px), never enlarged.
  return { width: spec.px, height: spec.px, fit: 'inside', withoutEnlargement: true };
}

/** Renders every size as WebP; a damaged or incomplete image is a 400. */
export async function renderVariants<S extends string>(
  data: Buffer,
  rendering: ImageRendering<S>,
): Promise<ImageVariant<S>[]> {
  const messages = rendering.messages ?? DEFAULT_IMAGE_MESSAGES;
  const { width, height, density } = await inspectImage(data, rendering);
  const base = sharp(data, {
    limitInputPixels: rendering.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS,
    failOn: 'error',
    ...(density ? { density } : {}),
  }).rotate();
  try {
    return await Promise.all(
      rendering.sizes.map(async (size) => {
        const spec = rendering.specs[size];
        const { data: out, info } = await base
          .clone()
          .resize(resizeOf(spec, width, height))
          .webp({ quality: spec.quality })
          .toBuffer({ resolveWithObject: true });
        return {
          size,
          width: info.width,
          height: info.height,
          contentType: VARIANT_CONTENT_TYPE,
          data: out,
        };
      }),
    );
  } catch {
    throw new AppException(ErrorCode.BAD_REQUEST, `${messages}.unreadable`);
  }
}
