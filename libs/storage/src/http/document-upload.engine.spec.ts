import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from '../file-storage';
import { DocumentUploadEngine } from './document-upload.engine';

/** A storage that consumes the body as DiskStorage does (pipeline) and keeps the bytes. */
function memoryStorage() {
  const stored = new Map<string, Buffer>();
  const storage = {
    async put(key: string, body: Readable) {
      const chunks: Buffer[] = [];
      const sink = new PassThrough();
      sink.on('data', (c: Buffer) => chunks.push(c));
      await pipeline(body, sink);
      stored.set(key, Buffer.concat(chunks));
      return { key, size: Buffer.concat(chunks).length };
    },
  } as unknown as FileStorage;
  return { storage, stored };
}

const part = (file: PassThrough) =>
  ({
    file,
    fieldname: 'file',
    filename: 'a.txt',
    mimetype: 'text/plain',
  }) as unknown as MultipartFile;

describe('DocumentUploadEngine', () => {
  it('stores a file part that ends normally', async () => {
    const { storage, stored } = memoryStorage();
    const engine = new DocumentUploadEngine(storage, async (_req, id) => `docs/${id}`);
    const file = new PassThrough();
    const received = engine.receive({} as FastifyRequest, part(file));
    file.end('hello');
    await expect(received).resolves.toMatchObject({ size: 5, originalname: 'a.txt' });
    expect([...stored.values()]).toEqual([Buffer.from('hello')]);
  });

  it('fails, rather than waiting for ever, when the form ends inside the file part', async () => {
    const { storage, stored } = memoryStorage();
    const engine = new DocumentUploadEngine(storage, async (_req, id) => `docs/${id}`);
    const file = new PassThrough();
    const received = engine.receive({} as FastifyRequest, part(file));
    file.write('unterminated');
    // what busboy does on a body that ends before the closing boundary
    setImmediate(() => file.destroy(new Error('Unexpected end of form')));
    await expect(received).rejects.toThrow('Unexpected end of form');
    expect(stored.size).toBe(0);
  });

  it('fails when the form ended while the owner was being checked', async () => {
    const { storage, stored } = memoryStorage();
    const file = new PassThrough();
    const engine = new DocumentUploadEngine(storage, async (_req, id) => {
      file.destroy(new Error('Unexpected end of form'));
      await new Promise((r) => setImmediate(r));
      return `docs/${id}`;
    });
    await expect(engine.receive({} as FastifyRequest, part(file))).rejects.toThrow(
      'Unexpected end of form',
    );
    expect(stored.size).toBe(0);
  });
});
