import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppException, ErrorCode } from '@crm/errors';
import { FileStorage, storageKey } from '@crm/storage';
import type { StoredUpload } from '@crm/storage';
import { ctx, MemoryDocumentStore, MemoryTx } from '../test/memory-stores';
import { BACKENDS, useTestStorage } from '../test/test-storages';
import { DocumentFiles } from './document-files';

let storage: FileStorage;
let store: MemoryDocumentStore;
let documents: DocumentFiles<unknown, MemoryTx>;

const A = ctx('tenant-a');
const owner = randomUUID();
const keyOf = (tenantId: string, ownerId: string, id: string) =>
  storageKey(tenantId, 'owners', ownerId, 'documents', id);

/** What the upload engine leaves behind: the bytes in storage under a new document id. */
async function streamed(data: string, name = 'Vertrag.pdf', ownerId = owner) {
  const documentId = randomUUID();
  const key = keyOf(A.tenantId, ownerId, documentId);
  await storage.put(key, Buffer.from(data), 'application/pdf');
  const upload: StoredUpload = {
    fieldname: 'file',
    originalname: name,
    mimetype: 'Application/PDF; charset=binary',
    size: Buffer.byteLength(data),
    buffer: Buffer.alloc(0),
    documentId,
    storageKey: key,
  };
  return upload;
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );

describe.each(BACKENDS)('on %s storage', (backend) => {
  const testStorage = useTestStorage(backend);

  beforeEach(async () => {
    storage = testStorage().storage;
    store = new MemoryDocumentStore();
    store.addOwner(A.tenantId, owner);
    documents = new DocumentFiles(storage, store, {
      name: 'TestDocuments',
      key: keyOf,
      ownerNotFound: (_c, id) => AppException.notFound('Owner', id),
      documentNotFound: (_c, id) => AppException.notFound('Document', id),
    });
  });

  describe('DocumentFiles.create', () => {
    it('records the row with the sanitized name, the bare media type and the caller', async () => {
      const upload = await streamed('%PDF-1.7', '../../Prüfbericht\r\n.pdf');
      const doc = await documents.create(A, owner.toUpperCase(), upload);
      expect(doc).toEqual({
        id: upload.documentId,
        ownerId: owner,
        fileName: 'Prüfbericht.pdf',
        contentType: 'application/pdf',
        size: 8,
        createdBy: 'test-suite',
      });
      expect(store.rows).toHaveLength(1);
      expect(await storage.exists(upload.storageKey)).toBe(true);
    });

    it('removes the stored bytes when the row insert fails, and passes the error on', async () => {
      const upload = await streamed('bytes');
      const dbDown = new Error('connection terminated');
      store.failInsert = dbDown;
      expect(await rejection(documents.create(A, owner, upload))).toBe(dbDown);
      expect(await storage.exists(upload.storageKey)).toBe(false);
      expect(store.rows).toEqual([]);
    });

    it("answers the owner's 404 when its foreign key refuses the row (owner deleted meanwhile)", async () => {
      const upload = await streamed('bytes');
      store.failInsert = Object.assign(new Error('fk'), { code: 'P2003' });
      const err = (await rejection(documents.create(A, owner, upload))) as AppException;
      expect(err).toMatchObject({
        code: ErrorCode.NOT_FOUND,
        args: { resource: 'Owner', id: owner },
      });
      expect(await storage.exists(upload.storageKey)).toBe(false);
    });

    it('an empty file is a 400 and leaves nothing; no file at all is a 400 after the owner check', async () => {
      const upload = await streamed('');
      const err = (await rejection(documents.create(A, owner, upload))) as AppException;
      expect(err.problems).toEqual([{ field: 'file', rule: 'isNotEmpty', args: {} }]);
      expect(await storage.exists(upload.storageKey)).toBe(false);

      const none = (await rejection(documents.create(A, owner, undefined))) as AppException;
      expect(none.problems[0]).toMatchObject({ field: 'file', rule: 'isDefined' });
      const unknown = (await rejection(
        documents.create(A, randomUUID(), undefined),
      )) as AppException;
      expect(unknown.args).toMatchObject({ resource: 'Owner' });
    });

    it("another tenant's owner is a 404 and its upload's bytes go", async () => {
      const upload = await streamed('intruder');
      const err = (await rejection(
        documents.create(ctx('tenant-b'), owner, upload),
      )) as AppException;
      expect(err.args).toMatchObject({ resource: 'Owner', id: owner });
      expect(await storage.exists(upload.storageKey)).toBe(false);
    });
  });

  describe('DocumentFiles reads and deletes', () => {
    it('lists a page sorted as asked; an unknown sort field is a 400', async () => {
      for (const name of ['b.pdf', 'a.pdf', 'c.xlsx'])
        await documents.create(A, owner, await streamed(name, name));
      const page = await documents.list(A, owner, { sort: 'fileName', page: 1, pageSize: 2 });
      expect(page.items.map((d) => (d as { fileName: string }).fileName)).toEqual([
        'a.pdf',
        'b.pdf',
      ]);
      expect(page.totalResults).toBe(3);
      const err = (await rejection(
        documents.list(A, owner, { sort: 'storageKey' }),
      )) as AppException;
      expect(err.problems[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
      expect(
        ((await rejection(documents.list(A, 'not-a-uuid', {}))) as AppException).args,
      ).toMatchObject({ resource: 'Owner' });
    });

    it('opens the bytes under the stored name and type; a row without bytes is a 404', async () => {
      const doc = (await documents.create(A, owner, await streamed('%PDF', 'a.pdf'))) as {
        id: string;
      };
      const answer = await documents.open(A, owner, doc.id);
      expect(answer).toMatchObject({
        downloadName: 'a.pdf',
        cacheControl: 'private, no-cache',
        file: { contentType: 'application/pdf', size: 4 },
      });
      answer.file.stream.destroy();

      await storage.delete(store.rows[0].storageKey);
      const err = (await rejection(documents.open(A, owner, doc.id))) as AppException;
      expect(err.args).toMatchObject({ resource: 'Document', id: doc.id });
      // an unknown owner is named before an unknown document
      expect(
        ((await rejection(documents.open(A, randomUUID(), doc.id))) as AppException).args,
      ).toMatchObject({ resource: 'Owner' });
    });

    it('deletes the row, then the bytes; a second delete is a 404', async () => {
      const upload = await streamed('x');
      const doc = (await documents.create(A, owner, upload)) as { id: string };
      expect(await documents.remove(A, owner, doc.id)).toEqual({ id: doc.id, deleted: true });
      expect(store.rows).toEqual([]);
      expect(await storage.exists(upload.storageKey)).toBe(false);
      const again = (await rejection(documents.remove(A, owner, doc.id))) as AppException;
      expect(again.args).toMatchObject({ resource: 'Document' });
    });

    it('a delete whose bytes cannot be removed still removes the row (unreachable bytes, logged)', async () => {
      const doc = (await documents.create(A, owner, await streamed('x'))) as { id: string };
      jest.spyOn(storage, 'delete').mockRejectedValueOnce(new Error('EACCES'));
      expect(await documents.remove(A, owner, doc.id)).toEqual({ id: doc.id, deleted: true });
      expect(store.rows).toEqual([]);
    });
  });

  describe('DocumentFiles.uploadEngine', () => {
    const request = (ownerId: string, tenantId = A.tenantId) =>
      ({
        headers: {
          'x-integration-name': 'test-suite',
          'x-integration-provider': 'jest',
          'x-service-tenantid': tenantId,
        },
        params: { id: ownerId },
      }) as unknown as FastifyRequest;
    const part = (data: string) =>
      ({
        fieldname: 'file',
        filename: 'notes.txt',
        mimetype: 'text/plain',
        file: Readable.from([Buffer.from(data)]),
      }) as unknown as MultipartFile;

    it("streams the file under the owner's key, the owner id in lower case", async () => {
      const stored = await documents
        .uploadEngine()
        .receive(request(owner.toUpperCase()), part('hi'));
      expect(stored).toMatchObject({
        originalname: 'notes.txt',
        size: 2,
        storageKey: keyOf(A.tenantId, owner, stored.documentId),
      });
      expect(await storage.exists(stored.storageKey)).toBe(true);
    });

    it('checks the owner before a byte is stored: unknown or foreign owners store nothing', async () => {
      for (const req of [request(randomUUID()), request('nope'), request(owner, 'tenant-b')]) {
        const err = (await rejection(
          documents.uploadEngine().receive(req, part('x')),
        )) as AppException;
        expect(err.args).toMatchObject({ resource: 'Owner' });
      }
      expect(await testStorage().children('')).toEqual([]);
    });
  });
});
