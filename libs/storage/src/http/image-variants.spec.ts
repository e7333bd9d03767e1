import sharp from 'sharp';
import { AppException } from '@crm/errors';
import { ImageRendering, inspectImage, renderVariants } from './image-variants';

const rendering: ImageRendering<'icon' | 'large'> = {
  sizes: ['icon', 'large'],
  specs: { icon: { px: 32, square: true, quality: 80 }, large: { px: 400, quality: 85 } },
  accepted: ['jpeg', 'png', 'svg'],
  messages: 'logos.image',
};

const png = (w: number, h: number) =>
  sharp({
    create: { width: w, height: h, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 0.4 } },
  })
    .png()
    .toBuffer();

const svg = (w: number, h: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
      `<rect width="${w}" height="${h / 2}" fill="#c00"/></svg>`,
  );

async function refusal(run: Promise<unknown>): Promise<AppException> {
  try {
    await run;
  } catch (err) {
    if (err instanceof AppException) return err;
    throw err;
  }
  throw new Error('expected an AppException');
}

describe('renderVariants', () => {
  it('derives every size as WebP: squares cropped, others inside px, never enlarged', async () => {
    const out = await renderVariants(await png(600, 300), rendering);
    expect(out.map((v) => [v.size, v.width, v.height, v.contentType])).toEqual([
      ['icon', 32, 32, 'image/webp'],
      ['large', 400, 200, 'image/webp'],
    ]);
    const small = await renderVariants(await png(100, 50), rendering);
    expect(small[1]).toMatchObject({ width: 100, height: 50 });
    expect(await sharp(out[1].data).metadata()).toMatchObject({ format: 'webp', hasAlpha: true });
  });

  it('renders a vector at vectorPx whatever size it declares', async () => {
    const tiny = await renderVariants(svg(40, 20), { ...rendering, vectorPx: 1000 });
    expect(tiny[1]).toMatchObject({ width: 400, height: 200 });
    const inspected = await inspectImage(svg(20000, 10000), { ...rendering, vectorPx: 1000 });
    expect(inspected).toMatchObject({ format: 'svg', width: 1000, height: 500 });
  });

  it('refuses formats not accepted (415) with the detected type, under the given key prefix', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const err = await refusal(renderVariants(gif, rendering));
    expect(err).toMatchObject({
      status: 415,
      messageKey: 'logos.image.unsupportedType',
      args: { type: 'image/gif' },
    });
    const text = await refusal(renderVariants(Buffer.from('hello'), rendering));
    expect(text).toMatchObject({ status: 415, args: { type: 'unknown' } });
    const noSvg = await refusal(renderVariants(svg(10, 10), { ...rendering, accepted: ['png'] }));
    expect(noSvg.args).toEqual({ type: 'image/svg+xml' });
  });

  it('refuses too many pixels (413) and damaged images (400)', async () => {
    const big = await refusal(
      renderVariants(await png(300, 300), { ...rendering, maxInputPixels: 10_000 }),
    );
    expect(big).toMatchObject({ status: 413, messageKey: 'logos.image.tooManyPixels' });
    const good = await sharp({
      create: { width: 300, height: 200, channels: 3, background: 'blue' },
    })
      .jpeg()
      .toBuffer();
    const broken = await refusal(renderVariants(good.subarray(0, good.length / 2), rendering));
    expect(broken).toMatchObject({ status: 400, messageKey: 'logos.image.unreadable' });
  });
});
