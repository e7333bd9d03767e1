import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { addOutboxEvent, Subjects } from '@crm/messaging';
import {
  gif,
  jpeg,
  LockProbe,
  png,
  startS3Server,
  TestS3Server,
  tracked,
  until,
  uploadHeaders,
} from '@crm/testing';
import { EventsKit } from '../test/events-kit';
import { asTenantDo, inspect } from '../test/scopes';

// E13-E16, W14, W15 against the real service, PostgreSQL, NATS and a temporary file storage:
// documents and galleries, another tenant's ids answered 404 with nothing stored or removed, and
// the copy of files and images when an event is duplicated (E9, through the outbox). Once with
// the files on disk, once on S3 (s3rver): the service must not notice the difference.

jest.setTimeout(90000);

let kit: EventsKit;
let A: string;
let B: string;

describe.each(['disk', 's3'] as const)('on %s storage', (backend) => {
  let s3: TestS3Server | undefined;
  beforeAll(async () => {
    if (backend === 's3') s3 = await startS3Server();
    kit = await EventsKit.start(`events_it_files${backend === 's3' ? '_s3' : ''}`, {}, s3);
    ({ A, B } = kit);
  }, 90000);
  afterAll(async () => {
    await kit?.close();
    await s3?.stop();
  });

  const upload = (path: string, data: Buffer | string, name: string, type: string, tenant = A) =>
    kit.api.upload(path, { data, name, type }, uploadHeaders(tenant));

  describe('E13, E14 event files', () => {
    it('uploads, lists, downloads, deletes', async () => {
      const event = await kit.event();
      const up = await upload(
        `/events/${event}/files`,
        'agenda text',
        '../Agenda 2026.txt',
        'text/plain',
      );
      expect(up.status).toBe(201);
      expect(up.body.data).toEqual({
        id: expect.any(String),
        eventId: event,
        fileName: 'Agenda 2026.txt',
        contentType: 'text/plain',
        size: 11,
        url: `/v1/crm/events/${event}/files/${up.body.data.id}`,
        createdBy: 'test-suite',
        dateCreated: expect.stringMatching(/Z$/),
      });
      await upload(`/events/${event}/files`, 'second', 'b.txt', 'text/plain');
      const list = await kit.call('GET', `/events/${event}/files?sort=fileName`);
      expect(list.body.data.map((f: { fileName: string }) => f.fileName)).toEqual([
        'Agenda 2026.txt',
        'b.txt',
      ]);
      expect(
        (await kit.call('GET', `/events/${event}/files?q=agenda`)).body.metaData.totalResults,
      ).toBe(1);
      const down = await kit.call('GET', `/events/${event}/files/${up.body.data.id}`);
      expect(down.status).toBe(200);
      expect(down.text).toBe('agenda text');
      expect(down.headers.get('content-disposition')).toContain('Agenda 2026.txt');
      const etag = down.headers.get('etag')!;
      expect(
        (
          await kit.call('GET', `/events/${event}/files/${up.body.data.id}`, undefined, A, {
            'If-None-Match': etag,
          })
        ).status,
      ).toBe(304);
      const del = await kit.call('DELETE', `/events/${event}/files/${up.body.data.id}`);
      expect(del.body.data).toEqual({ id: up.body.data.id, deleted: true });
      const left = (await kit.svc.filesOf(A)).filter((f) => f.includes(`events/${event}/files/`));
      expect(left.some((f) => f.includes(up.body.data.id))).toBe(false);
      expect(left.filter((f) => !f.endsWith('.meta.json'))).toHaveLength(1);
      expect((await kit.call('GET', `/events/${event}/files/${up.body.data.id}`)).status).toBe(404);
    });

    it("another tenant's event or file: 404, nothing stored or removed", async () => {
      const event = await kit.event();
      const file = (await upload(`/events/${event}/files`, 'x', 'x.txt', 'text/plain')).body.data
        .id;
      const before = await kit.svc.filesOf(A);
      expect((await upload(`/events/${event}/files`, 'y', 'y.txt', 'text/plain', B)).status).toBe(
        404,
      );
      for (const [method, path] of [
        ['GET', `/events/${event}/files`],
        ['GET', `/events/${event}/files/${file}`],
        ['DELETE', `/events/${event}/files/${file}`],
      ]) {
        expect({ path, status: (await kit.call(method, path, undefined, B)).status }).toEqual({
          path,
          status: 404,
        });
      }
      expect((await kit.call('GET', `/events/${randomUUID()}/files`)).status).toBe(404);
      expect(await kit.svc.filesOf(A)).toEqual(before);
      expect(await kit.svc.filesOf(B)).toEqual([]);
      expect(await inspect(() => kit.db.eventFile.count({ where: { eventId: event } }))).toBe(1);
    });
  });

  describe.each([
    ['E15, E16 event images', 'events', () => kit.event(), (t: string) => kit.event({}, t)],
    ['W14, W15 website images', 'websites', () => kit.website(), (t: string) => kit.website({}, t)],
  ])('%s', (_name, base, owner, ownerOf) => {
    it('uploads several images with derived sizes, lists, reads a size, deletes', async () => {
      const id = await owner();
      const first = await upload(
        `/${base}/${id}/images`,
        await jpeg(800, 400),
        'photo.jpg',
        'image/jpeg',
      );
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({
        ownerId: id,
        fileName: 'photo.jpg',
        position: 0,
        createdBy: 'test-suite',
      });
      expect(
        first.body.data.sizes.map((s: { size: string; width: number; height: number }) => [
          s.size,
          s.width,
          s.height,
        ]),
      ).toEqual([
        ['thumbnail', 160, 160],
        ['small', 480, 240],
        ['detail', 800, 400],
        ['original', 800, 400],
      ]);
      const imageId = first.body.data.id;
      expect(first.body.data.sizes[1].url).toBe(
        `/v1/crm/${base}/${id}/images/${imageId}?size=small`,
      );
      const second = await upload(`/${base}/${id}/images`, await png(50, 50), 'b.png', 'image/png');
      expect(second.body.data.position).toBe(1);
      const list = await kit.call('GET', `/${base}/${id}/images`);
      expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([
        imageId,
        second.body.data.id,
      ]);
      expect(list.body.metaData.totalResults).toBe(2);
      const described = await kit.call('GET', `/${base}/${id}/images/${imageId}`);
      expect(described.status).toBe(200);
      expect(described.body.data).toEqual(first.body.data);
      const bytes = await kit.call('GET', `/${base}/${id}/images/${imageId}?size=small`);
      expect(bytes.status).toBe(200);
      expect(bytes.headers.get('content-type')).toBe('image/webp');
      expect(await sharp(bytes.bytes).metadata()).toMatchObject({
        format: 'webp',
        width: 480,
        height: 240,
      });
      expect((await kit.call('GET', `/${base}/${id}/images/${imageId}?size=huge`)).status).toBe(
        400,
      );
      const del = await kit.call('DELETE', `/${base}/${id}/images/${imageId}`);
      expect(del.body.data).toEqual({ id: imageId, deleted: true });
      expect((await kit.svc.filesOf(A)).some((f) => f.includes(imageId))).toBe(false);
      expect((await kit.call('GET', `/${base}/${id}/images/${imageId}`)).status).toBe(404);
    });

    it('refuses what is not an image (415), nothing (400); another tenant 404 with nothing changed', async () => {
      const id = await owner();
      expect(
        (await upload(`/${base}/${id}/images`, await gif(), 'a.gif', 'image/gif')).status,
      ).toBe(415);
      expect(
        (await kit.api.rest('POST', `/${base}/${id}/images`, new FormData(), uploadHeaders(A)))
          .status,
      ).toBe(400);
      const img = (await upload(`/${base}/${id}/images`, await png(20, 20), 'a.png', 'image/png'))
        .body.data.id;
      const foreign = await ownerOf(B);
      expect(
        (await upload(`/${base}/${id}/images`, await png(20, 20), 'b.png', 'image/png', B)).status,
      ).toBe(404);
      for (const [method, path] of [
        ['GET', `/${base}/${id}/images`],
        ['GET', `/${base}/${id}/images/${img}`],
        ['GET', `/${base}/${id}/images/${img}?size=small`],
        ['DELETE', `/${base}/${id}/images/${img}`],
        ['GET', `/${base}/${foreign}/images/${img}`],
      ]) {
        expect({ path, status: (await kit.call(method, path, undefined, B)).status }).toEqual({
          path,
          status: 404,
        });
      }
      expect((await kit.call('DELETE', `/${base}/${foreign}/images/${img}`)).status).toBe(404);
      expect((await kit.call('GET', `/${base}/${id}/images`)).body.data).toHaveLength(1);
      expect(await kit.svc.filesOf(B)).toEqual([]);
    });
  });

  describe('gallery limit', () => {
    it('the 51st image is a 409, also when uploads race', async () => {
      const id = await kit.website();
      const img = await png(8, 8);
      const answers = await Promise.all(
        Array.from({ length: 55 }, (_, i) =>
          upload(`/websites/${id}/images`, img, `${i}.png`, 'image/png'),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(50);
      expect(statuses.filter((s) => s === 409)).toHaveLength(5);
      for (const full of answers.filter((a) => a.status === 409))
        expect(full.body.errors).toEqual([
          { field: 'file', rule: 'galleryFull', message: full.body.message },
        ]);
      expect(await inspect(() => kit.db.websiteImage.count({ where: { websiteId: id } }))).toBe(50);
      const folders = new Set(
        (await kit.svc.filesOf(A)).filter((f) => f.includes(id)).map((f) => f.split('/')[3]),
      );
      expect(folders.size).toBe(50);
    });

    it('uploads waiting for the website row hold one connection, not the pool', async () => {
      // The row held by a connection of the test's own (another replica's upload, a long
      // transaction): uploads to it must wait without taking the pool's 10 connections, which
      // every other request of the service needs. Before InTurn: 10 sessions waited for the row,
      // and a read of another website (and uploads) answered 503 after CONNECT_TIMEOUT_MS.
      const id = await kit.website();
      const other = await kit.website({ name: 'Other' });
      const img = await png(8, 8);
      const probe = await LockProbe.connect(kit.svc.databaseUrl);
      const release = await probe.holdRows(`SELECT 1 FROM "Website" WHERE "id" = $1::uuid`, [id]);
      try {
        const n = 20;
        const uploads = Array.from({ length: n }, (_, i) =>
          tracked(upload(`/websites/${id}/images`, img, `${i}.png`, 'image/png')),
        );
        // each upload stores its files before its transaction: all n are then at the lock
        const manifests = async () =>
          (await kit.svc.filesOf(A)).filter((f) => f.includes(id) && f.endsWith('manifest.json'))
            .length;
        await until(
          'every upload at the lock (or more than one waiting for the row)',
          async () => [await manifests(), await probe.waiting('row')],
          ([stored, waiting]) => (stored === n && waiting === 1) || waiting > 1,
          60_000,
        );
        expect(await probe.waiting('row')).toBe(1);
        expect(await manifests()).toBe(n);
        expect((await kit.call('GET', `/websites/${other}`)).status).toBe(200);
        expect(uploads.every((u) => u.answer === null)).toBe(true);
        await release();
        const statuses = (await Promise.all(uploads.map((u) => u.done))).map((a) => a.status);
        expect(statuses).toEqual(Array(n).fill(201));
      } finally {
        await release().catch(() => undefined);
        await probe.close();
      }
    });
  });

  describe('website delete removes its images', () => {
    it('rows by cascade, bytes after the commit', async () => {
      const id = await kit.website();
      await upload(`/websites/${id}/images`, await png(20, 20), 'a.png', 'image/png');
      expect((await kit.svc.filesOf(A)).some((f) => f.includes(id))).toBe(true);
      expect((await kit.call('DELETE', `/websites/${id}`)).status).toBe(200);
      expect((await kit.svc.filesOf(A)).some((f) => f.includes(id))).toBe(false);
    });
  });

  describe('E9 duplicate: files and images follow the copy', () => {
    // a deadline for a consumer on a busy machine, not a wait
    const until = async (check: () => Promise<boolean>, ms = 60_000) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (await check()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('timed out');
    };

    it('copies rows and bytes once, also when the event is delivered twice', async () => {
      const source = await kit.event();
      const copy = await kit.event({ title: 'Copy' });
      await upload(`/events/${source}/files`, 'programme', 'programme.txt', 'text/plain');
      const img = (
        await upload(`/events/${source}/images`, await png(40, 20), 'p.png', 'image/png')
      ).body.data;
      const eventId = randomUUID();
      // as E9's route writes it: in a transaction of tenant A
      const publish = () =>
        asTenantDo(A, () =>
          kit.db.$transaction((tx) =>
            addOutboxEvent(tx, {
              id: eventId,
              tenantId: A,
              subject: Subjects.events.eventDuplicated,
              payload: { tenantId: A, sourceEventId: source, eventId: copy },
            }),
          ),
        );
      await publish();
      await until(
        async () =>
          (await inspect(() => kit.db.eventImage.count({ where: { eventId: copy } }))) === 1,
      );
      await until(
        async () =>
          (await inspect(() => kit.db.eventFile.count({ where: { eventId: copy } }))) === 1,
      );
      const files = await kit.call('GET', `/events/${copy}/files`);
      expect(files.body.data).toEqual([
        expect.objectContaining({ fileName: 'programme.txt', size: 9 }),
      ]);
      expect((await kit.call('GET', files.body.data[0].url.replace('/v1/crm', ''))).text).toBe(
        'programme',
      );
      const images = await kit.call('GET', `/events/${copy}/images`);
      expect(images.body.data).toHaveLength(1);
      expect(images.body.data[0].id).not.toBe(img.id);
      expect(images.body.data[0].sizes.map((s: { width: number }) => s.width)).toEqual(
        img.sizes.map((s: { width: number }) => s.width),
      );
      const copyBytes = await kit.call(
        'GET',
        `/events/${copy}/images/${images.body.data[0].id}?size=detail`,
      );
      expect(copyBytes.status).toBe(200);

      // a redelivery (the same outbox event id again, e.g. after a relay crash) copies nothing twice
      await asTenantDo(A, () => kit.db.outboxEvent.delete({ where: { id: eventId } }));
      await publish();
      await until(
        async () =>
          (await inspect(() => kit.db.outboxEvent.findUnique({ where: { id: eventId } })))
            ?.publishedAt != null,
      );
      await new Promise((r) => setTimeout(r, 1000));
      expect(await inspect(() => kit.db.eventImage.count({ where: { eventId: copy } }))).toBe(1);
      expect(await inspect(() => kit.db.eventFile.count({ where: { eventId: copy } }))).toBe(1);
      // deleting the copy's image leaves the source's bytes
      await kit.call('DELETE', `/events/${copy}/images/${images.body.data[0].id}`);
      expect((await kit.call('GET', `/events/${source}/images/${img.id}?size=detail`)).status).toBe(
        200,
      );
    });
  });

  describe('E9 through its route', () => {
    it('POST /events/{id}/duplicate: the copy gets the files and images', async () => {
      const source = await kit.event();
      await upload(`/events/${source}/files`, 'hand-out', 'hand-out.txt', 'text/plain');
      await upload(`/events/${source}/images`, await png(30, 30), 'a.png', 'image/png');
      const dup = await kit.call('POST', `/events/${source}/duplicate`);
      expect(dup.status).toBe(201);
      const copy = dup.body.data.id;
      const end = Date.now() + 20000;
      while (
        Date.now() < end &&
        (await inspect(() => kit.db.eventImage.count({ where: { eventId: copy } }))) === 0
      ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await kit.call('GET', `/events/${copy}/images`)).body.data).toHaveLength(1);
      const files = (await kit.call('GET', `/events/${copy}/files`)).body.data;
      expect(files.map((f: { fileName: string }) => f.fileName)).toEqual(['hand-out.txt']);
      expect((await kit.call('GET', files[0].url.replace('/v1/crm', ''))).text).toBe('hand-out');
    });
  });

  describe('E5, E6 delete: the bytes of deleted events go', () => {
    it('after the commit of DELETE /events/{id} and /events/batch; other events keep theirs', async () => {
      const one = await kit.event();
      const two = await kit.event();
      const kept = await kit.event();
      for (const id of [one, two, kept]) {
        await upload(`/events/${id}/files`, 'x', 'x.txt', 'text/plain');
        await upload(`/events/${id}/images`, await png(20, 20), 'a.png', 'image/png');
      }
      expect((await kit.call('DELETE', `/events/${one}`, undefined, B)).status).toBe(404);
      expect((await kit.svc.filesOf(A)).some((f) => f.includes(one))).toBe(true);
      expect((await kit.call('DELETE', `/events/${one}`)).status).toBe(200);
      expect((await kit.call('DELETE', '/events/batch', { ids: [two] })).status).toBe(200);
      const left = await kit.svc.filesOf(A);
      expect(left.some((f) => f.includes(one) || f.includes(two))).toBe(false);
      expect(left.some((f) => f.includes(kept))).toBe(true);
      expect(
        await inspect(() => kit.db.eventImage.count({ where: { eventId: { in: [one, two] } } })),
      ).toBe(0);
    });
  });

  describe('GraphQL', () => {
    it('lists and deletes files and images', async () => {
      const event = await kit.event();
      const file = (await upload(`/events/${event}/files`, 'x', 'x.txt', 'text/plain')).body.data
        .id;
      const img = (await upload(`/events/${event}/images`, await png(20, 20), 'a.png', 'image/png'))
        .body.data.id;
      const q = await kit.gql(
        `query($id: ID!) { eventFiles(eventId: $id) { totalResults items { id } } eventImages(eventId: $id) { id sizes { size url } } }`,
        { id: event },
      );
      expect(q.body.errors).toBeUndefined();
      expect(q.body.data.eventFiles).toEqual({ totalResults: 1, items: [{ id: file }] });
      expect(q.body.data.eventImages[0].id).toBe(img);
      const foreign = await kit.gql(
        `query($id: ID!) { eventImages(eventId: $id) { id } }`,
        { id: event },
        B,
      );
      expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
      const del = await kit.gql(
        `mutation($e: ID!, $i: ID!) { deleteEventImage(eventId: $e, imageId: $i) { id deleted } }`,
        { e: event, i: img },
      );
      expect(del.body.data.deleteEventImage).toEqual({ id: img, deleted: true });
      const delFile = await kit.gql(
        `mutation($e: ID!, $f: ID!) { deleteEventFile(eventId: $e, fileId: $f) { deleted } }`,
        { e: event, f: file },
      );
      expect(delFile.body.data.deleteEventFile.deleted).toBe(true);
    });
  });
});
