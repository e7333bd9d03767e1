import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStorage, InvalidStorageKeyError, StoredFile, StoredObject } from './file-storage';
import { parseStorageKey } from './storage-key';

interface Meta {
  contentType: string;
  size: number;
  sha256: string;
}

const DEFAULT_TYPE = 'application/octet-stream';

/**
 * FileStorage on a local folder (a mounted volume in production). Layout: the key is the path
 * under `root`; next to each object `.<name>.meta.json` holds its content type, size and hash.
 * Writes go to a hidden temporary file in the target folder, are flushed, then renamed over the
 * target, so readers never see a partial object. Folders left empty by deletes are kept: removing
 * them could race with a concurrent write into them.
 */
export class DiskStorage implements FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** Creates the root folder; call once at start so a bad volume fails early. */
  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  private resolve(key: string, minSegments = 3): string {
    const segments = parseStorageKey(key, minSegments);
    const full = path.resolve(this.root, ...segments);
    // parseStorageKey already forbids `..`; this guards against any path trick it might miss.
    if (!full.startsWith(this.root + path.sep)) {
      throw new InvalidStorageKeyError(key, 'resolves outside the storage root');
    }
    return full;
  }

  private static metaPath(file: string): string {
    return path.join(path.dirname(file), `.${path.basename(file)}.meta.json`);
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<StoredObject> {
    const file = this.resolve(key);
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `.tmp-${randomUUID()}`);
    const tmpMeta = `${tmp}.meta`;
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, measure, createWriteStream(tmp, { flags: 'wx', flush: true }));
      const meta: Meta = {
        contentType: contentType || DEFAULT_TYPE,
        size,
        sha256: hash.digest('hex'),
      };
      await writeFile(tmpMeta, JSON.stringify(meta), { flag: 'wx', flush: true });
      // Metadata first: a reader of an overwritten key may briefly see new metadata with the old
      // bytes, never bytes without metadata. Keys of new objects (new ids) are not affected.
      await rename(tmpMeta, DiskStorage.metaPath(file));
      await rename(tmp, file);
      const { mtime } = await stat(file);
      return { key, ...meta, lastModified: mtime };
    } catch (err) {
      await Promise.all([rm(tmp, { force: true }), rm(tmpMeta, { force: true })]);
      throw err;
    }
  }

  private async readMeta(file: string, size: number): Promise<Meta> {
    try {
      const meta = JSON.parse(await readFile(DiskStorage.metaPath(file), 'utf8')) as Meta;
      return { contentType: meta.contentType || DEFAULT_TYPE, size, sha256: meta.sha256 ?? '' };
    } catch {
      // An object copied in by hand has no metadata: serve it as bytes.
      return { contentType: DEFAULT_TYPE, size, sha256: '' };
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.resolve(key);
    // Opening first pins the inode: a concurrent replace or delete does not cut this read short.
    const handle = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EISDIR') return null;
      throw err;
    });
    if (!handle) return null;
    try {
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        return null;
      }
      const meta = await this.readMeta(file, st.size);
      return { key, ...meta, lastModified: st.mtime, stream: handle.createReadStream() };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    const file = this.resolve(key);
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) return null;
    return { key, ...(await this.readMeta(file, st.size)), lastModified: st.mtime };
  }

  async exists(key: string): Promise<boolean> {
    const st = await stat(this.resolve(key)).catch(() => null);
    return !!st?.isFile();
  }

  async delete(key: string): Promise<boolean> {
    const file = this.resolve(key);
    const removed = await unlink(file).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return false;
        throw err;
      },
    );
    await rm(DiskStorage.metaPath(file), { force: true });
    return removed;
  }

  async deletePrefix(prefix: string): Promise<number> {
    // `tenants/<tenant>` at least: never the whole storage by mistake.
    const dir = this.resolve(prefix.replace(/\/+$/, ''), 2);
    // Renaming the folder away first makes the removal atomic for readers.
    const st = await stat(dir).catch(() => null);
    if (!st?.isDirectory()) return 0;
    const trash = path.join(path.dirname(dir), `.del-${randomUUID()}`);
    try {
      await rename(dir, trash);
    } catch (err) {
      // Removed meanwhile by someone else: nothing left to do.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    const count = await countObjects(trash);
    await rm(trash, { recursive: true, force: true });
    return count;
  }
}

/** Objects (not metadata or temporary files) in a folder tree. */
async function countObjects(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory()) n += await countObjects(path.join(dir, e.name));
    else if (e.isFile()) n++;
  }
  return n;
}
