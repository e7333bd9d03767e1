import sharp from 'sharp';
import { tenantHeaders } from '@crm/testing';
import type { FilesService } from './files-harness';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers are checked field by field */

/** Headers of tenant `t` without the JSON content type (fetch sets the multipart one). */
export const headersOf = (t: string, extra: Record<string, string> = {}) => {
  const { 'Content-Type': _json, ...rest } = tenantHeaders(t);
  return { ...rest, ...extra };
};

export interface UploadOptions {
  tenant?: string;
  type?: string;
  name?: string;
  field?: string;
  lang?: string;
}

/** REST calls of the profile image tests against one running service, as tenant `A` by default. */
export function imagesClient(svc: () => FilesService, A: string) {
  async function call(method: string, path: string, body?: unknown, tenant = A) {
    const res = await fetch(`${svc().url}/v1/crm${path}`, {
      method,
      headers: tenantHeaders(tenant),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function upload(personId: string, data: Buffer, opts: UploadOptions = {}) {
    const form = new FormData();
    form.append(
      opts.field ?? 'file',
      new Blob([data], { type: opts.type ?? 'image/jpeg' }),
      opts.name ?? 'me.jpg',
    );
    const res = await fetch(`${svc().url}/v1/crm/people/${personId}/profile-image`, {
      method: 'POST',
      headers: headersOf(opts.tenant ?? A, opts.lang ? { 'Accept-Language': opts.lang } : {}),
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function image(
    personId: string,
    size: string,
    tenant = A,
    extra: Record<string, string> = {},
  ) {
    const res = await fetch(`${svc().url}/v1/crm/people/${personId}/profile-image/${size}`, {
      headers: headersOf(tenant, extra),
    });
    return {
      status: res.status,
      headers: res.headers,
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  }

  async function person(tenant = A): Promise<string> {
    const { status, body } = await call(
      'POST',
      '/people',
      { firstname: 'Ada', lastname: 'Lovelace' },
      tenant,
    );
    if (status !== 201) throw new Error(`create person: ${JSON.stringify(body)}`);
    return body.data.id;
  }

  /** The stored files of one person of tenant A. */
  const filesOfPerson = async (id: string) =>
    (await svc().filesOf(A)).filter((f) => f.includes(id));

  return { call, upload, image, person, filesOfPerson };
}

/** A photo-like JPEG: a gradient, so it compresses like a picture and not like one colour. */
export async function jpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = 128;
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

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
