import sharp from 'sharp';

/** Test images made with sharp: real files of each kind an image upload may carry. */

/** A photo-like JPEG: a gradient, so it compresses like a picture and not like one colour. */
export async function jpeg(width: number, height: number, orientation?: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = 128;
    }
  const img = sharp(raw, { raw: { width, height, channels: 3 } });
  return (orientation ? img.withMetadata({ orientation }) : img).jpeg({ quality: 90 }).toBuffer();
}

/** A half-transparent PNG. */
export const png = (w: number, h: number) =>
  sharp({
    create: { width: w, height: h, channels: 4, background: { r: 200, g: 10, b: 10, alpha: 0.5 } },
  })
    .png()
    .toBuffer();

export const webp = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: 'navy' } })
    .webp()
    .toBuffer();

export const gif = () =>
  sharp({ create: { width: 10, height: 10, channels: 3, background: 'red' } })
    .gif()
    .toBuffer();

/** A wordmark as vector: 200 x 50 user units, transparent around the text bar. */
export const svg = (w = 200, h = 50) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
      `<rect x="0" y="${h / 4}" width="${w}" height="${h / 2}" fill="#1a73e8"/></svg>`,
  );
