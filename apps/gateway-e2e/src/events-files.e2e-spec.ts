import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client as Pg } from 'pg';
import sharp from 'sharp';
import { tenantHeaders } from '@crm/testing';
import { Answer, Client, EVENT_SERVICES, startClient, TestTenant } from './client';

// E13-E16 (event files and images) through the gateway: uploads and downloads stream through its
// proxy into a temporary FILE_STORAGE_DIR; another tenant's ids answer 404 and leave the files
// alone. Events are rows written straight into the events database.

jest.setTimeout(90000);

let client: Client;
let a: TestTenant;
let b: TestTenant;
let pg: Pg;
let storageDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'crm-e2e-event-files-'));
  process.env.FILE_STORAGE_DIR = storageDir;
  client = await startClient('eventfiles', EVENT_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
  pg = new Pg({ connectionString: client.stack.processes.get('events')!.env.DATABASE_URL });
  await pg.connect();
}, 180000);
afterAll(async () => {
  await pg?.end();
  await client?.stack.shutdown();
  delete process.env.FILE_STORAGE_DIR;
  await rm(storageDir, { recursive: true, force: true });
}, 30000);

async function event(t: TestTenant): Promise<string> {
  const id = randomUUID();
  await pg.query(
    `INSERT INTO "Event" (id, "tenantId", title, "timeZone", "dateModified") VALUES ($1, $2, 'Fair', 'Europe/Berlin', now())`,
    [id, t.id],
  );
  return id;
}

async function filesOf(t: TestTenant): Promise<string[]> {
  const dir = path.join(storageDir, 'tenants', t.id);
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const headers = (t: TestTenant) => {
  const { 'Content-Type': _json, ...rest } = tenantHeaders(t.id);
  return { ...rest, Authorization: `Bearer ${t.key}` };
};
function upload(
  t: TestTenant,
  p: string,
  data: Buffer | string,
  name: string,
  type: string,
): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), name);
  return client.raw(`/v1/crm${p}`, { method: 'POST', headers: headers(t), body: form });
}

describe('E13, E14 event files', () => {
  it('uploads, lists, downloads, deletes; another tenant: 404, nothing touched', async () => {
    const id = await event(a);
    const up = await upload(a, `/events/${id}/files`, 'the agenda', 'Agenda.txt', 'text/plain');
    expect(up.status).toBe(201);
    const fileId = up.body.data.id;
    expect(up.body.data).toMatchObject({ eventId: id, fileName: 'Agenda.txt', size: 10 });
    const list = await client.rest(a, 'GET', `/events/${id}/files`);
    expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([fileId]);
    const down = await client.raw(`/v1/crm/events/${id}/files/${fileId}`, { headers: headers(a) });
    expect(down.status).toBe(200);
    expect(down.body).toBe('the agenda');
    expect(down.headers.get('content-disposition')).toContain('Agenda.txt');

    const before = await filesOf(a);
    expect((await upload(b, `/events/${id}/files`, 'x', 'x.txt', 'text/plain')).status).toBe(404);
    expect((await client.rest(b, 'GET', `/events/${id}/files`)).status).toBe(404);
    expect(
      (await client.raw(`/v1/crm/events/${id}/files/${fileId}`, { headers: headers(b) })).status,
    ).toBe(404);
    expect((await client.rest(b, 'DELETE', `/events/${id}/files/${fileId}`)).status).toBe(404);
    expect(await filesOf(a)).toEqual(before);
    expect(await filesOf(b)).toEqual([]);

    expect((await client.rest(a, 'DELETE', `/events/${id}/files/${fileId}`)).body.data).toEqual({
      id: fileId,
      deleted: true,
    });
    expect(
      (await client.raw(`/v1/crm/events/${id}/files/${fileId}`, { headers: headers(a) })).status,
    ).toBe(404);
  });
});

describe('E15, E16 event images', () => {
  it('uploads a gallery with derived sizes, reads, deletes; another tenant: 404', async () => {
    const id = await event(a);
    const png = await sharp({
      create: { width: 900, height: 600, channels: 3, background: 'orange' },
    })
      .png()
      .toBuffer();
    const first = await upload(a, `/events/${id}/images`, png, 'stage.png', 'image/png');
    expect(first.status).toBe(201);
    expect(first.body.data.sizes.map((s: { size: string }) => s.size)).toEqual([
      'thumbnail',
      'small',
      'detail',
      'original',
    ]);
    const second = await upload(a, `/events/${id}/images`, png, 'hall.png', 'image/png');
    expect(second.body.data.position).toBe(1);
    expect((await upload(a, `/events/${id}/images`, 'text', 'a.txt', 'text/plain')).status).toBe(
      415,
    );
    const list = await client.rest(a, 'GET', `/events/${id}/images`);
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([
      first.body.data.id,
      second.body.data.id,
    ]);
    const detail = await client.raw(
      `/v1/crm/events/${id}/images/${first.body.data.id}?size=detail`,
      { headers: headers(a) },
    );
    expect(detail.status).toBe(200);
    expect(detail.headers.get('content-type')).toBe('image/webp');
    expect(
      (await client.rest(a, 'GET', `/events/${id}/images/${first.body.data.id}?size=giant`)).status,
    ).toBe(400);
    expect((await client.rest(b, 'GET', `/events/${id}/images/${first.body.data.id}`)).status).toBe(
      404,
    );
    expect(
      (await client.rest(b, 'DELETE', `/events/${id}/images/${first.body.data.id}`)).status,
    ).toBe(404);
    expect((await upload(b, `/events/${id}/images`, png, 'x.png', 'image/png')).status).toBe(404);
    const del = await client.rest(a, 'DELETE', `/events/${id}/images/${first.body.data.id}`);
    expect(del.body.data).toEqual({ id: first.body.data.id, deleted: true });
    expect((await filesOf(a)).some((f) => f.includes(first.body.data.id))).toBe(false);
    expect((await filesOf(a)).some((f) => f.includes(second.body.data.id))).toBe(true);
  });
});
