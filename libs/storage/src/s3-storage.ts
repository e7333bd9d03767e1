import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { FileStorage, InvalidStorageKeyError, StoredFile, StoredObject } from './file-storage';
import { parseStorageKey } from './storage-key';

const DEFAULT_TYPE = 'application/octet-stream';

/** Segments of an S3_PREFIX: the same plain names as a key's (storage-key.ts). */
const PREFIX = /^([A-Za-z0-9_-][A-Za-z0-9._-]{0,199})(\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199})*\/?$/;

/**
 * Bodies given as a stream are buffered up to this many bytes (see `put`). Above every limit the
 * callers enforce (documents 20 MiB, images 5 MiB, @crm/files), so it is only a safety net.
 */
export const S3_DEFAULT_MAX_OBJECT_BYTES = 64 * 1024 * 1024;

export interface S3StorageOptions {
  bucket: string;
  /** An S3-compatible server (MinIO, s3rver...); unset: AWS for `region`. */
  endpoint?: string;
  region: string;
  /** Prepended to every key (`crm-people/`), so several services can share one bucket. */
  prefix?: string;
  /** Bucket in the path, not the host name: MinIO and s3rver need it. */
  forcePathStyle?: boolean;
  /** Unset: the SDK's default credential chain (env, IRSA on Kubernetes, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  maxObjectBytes?: number;
}

/** A stream body above `maxObjectBytes`: nothing was stored. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`object larger than ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

const isNotFound = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.$metadata?.httpStatusCode === 404 ||
    e?.name === 'NoSuchKey' ||
    e?.name === 'NotFound' ||
    e?.name === 'NoSuchBucket'
  );
};

/**
 * FileStorage on an S3 bucket (AWS, or MinIO and the like), for replicas without a shared
 * volume. Object key: `<prefix><key>`; the SHA-256 is user metadata (`x-amz-meta-sha256`),
 * computed while the body is read. A PUT replaces an object atomically, so readers see the
 * whole old or the whole new object, as with DiskStorage. Downloads stay proxied through the
 * service (`get` streams the object): tenant checks stay where they are, and the bucket needs no
 * public access or presigned URLs.
 */
export class S3Storage implements FileStorage {
  readonly bucket: string;
  readonly prefix: string;
  private readonly client: S3Client;
  private readonly maxObjectBytes: number;
  private readonly where: string;

  constructor(options: S3StorageOptions) {
    const prefix = options.prefix ?? '';
    if (prefix && !PREFIX.test(prefix)) {
      throw new InvalidStorageKeyError(prefix, 'an S3 prefix is plain segments separated by /');
    }
    this.bucket = options.bucket;
    this.prefix = prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix;
    this.maxObjectBytes = options.maxObjectBytes ?? S3_DEFAULT_MAX_OBJECT_BYTES;
    this.where = `s3://${this.bucket}/${this.prefix} at ${options.endpoint || `AWS ${options.region}`}`;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint || undefined,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // Checksums only where S3 requires them (DeleteObjects): S3-compatible servers do not all
      // know the newer default ones. Integrity of our bytes is the stored SHA-256.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK waits for ever by default: an unreachable or stalled server must fail the start
      // or the request instead. The idle limit is generous for downloads read by slow clients.
      requestHandler: { connectionTimeout: 5000, socketTimeout: 120_000 },
    });
  }

  /** Checks the bucket answers (HeadBucket); call once at start so a bad config fails early. */
  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      const reason =
        status === 404
          ? 'the bucket does not exist'
          : status === 403
            ? 'access denied (credentials or bucket policy)'
            : `${e.name ?? 'error'}${status ? ` ${status}` : ''}: ${e.message ?? ''}`;
      throw new Error(`File storage ${this.where} is not usable: ${reason}`, { cause: err });
    }
  }

  /** Closes the client's sockets (Nest calls it when the app closes). */
  onModuleDestroy(): void {
    this.client.destroy();
  }

  private objectKey(key: string, minSegments = 3): string {
    parseStorageKey(key, minSegments);
    return this.prefix + key;
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<StoredObject> {
    const objectKey = this.objectKey(key);
    // PutObject needs the length up front and lib-storage (multipart) is not used: a stream is
    // read into memory first, bounded by maxObjectBytes (callers bound it lower). A failing
    // source therefore stores nothing, and the hash is known before the PUT.
    const bytes = Buffer.isBuffer(body) ? body : await this.readBounded(body);
    if (bytes.length > this.maxObjectBytes) throw new ObjectTooLargeError(this.maxObjectBytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const type = contentType || DEFAULT_TYPE;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: objectKey,
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: type,
        Metadata: { sha256 },
      }),
    );
    // S3 keeps whole seconds; a later stat() of this object answers the same date.
    const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000);
    return { key, size: bytes.length, contentType: type, sha256, lastModified };
  }

  private async readBounded(stream: Readable): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buf.length;
      if (size > this.maxObjectBytes) {
        stream.destroy();
        throw new ObjectTooLargeError(this.maxObjectBytes);
      }
      chunks.push(buf);
    }
    return Buffer.concat(chunks, size);
  }

  private static described(
    key: string,
    head: {
      ContentLength?: number;
      ContentType?: string;
      Metadata?: Record<string, string>;
      LastModified?: Date;
    },
  ): StoredObject {
    return {
      key,
      size: head.ContentLength ?? 0,
      // An object uploaded by other means may lack both: served as bytes, as on disk.
      contentType: head.ContentType || DEFAULT_TYPE,
      sha256: head.Metadata?.sha256 ?? '',
      lastModified: head.LastModified ?? new Date(0),
    };
  }

  async get(key: string): Promise<StoredFile | null> {
    const objectKey = this.objectKey(key);
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }),
      );
      // In Node the body is the HTTP response itself: streamed, never buffered here.
      return { ...S3Storage.described(key, res), stream: res.Body as Readable };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    const objectKey = this.objectKey(key);
    try {
      const res = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }),
      );
      return S3Storage.described(key, res);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key);
    // DeleteObject answers the same whether or not there was an object: HEAD first for the
    // boolean (a concurrent delete may make both callers see true; harmless for the callers).
    const existed = await this.exists(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    return existed;
  }

  async deletePrefix(prefix: string): Promise<number> {
    // `tenants/<tenant>` at least, and a trailing `/` so that `p1` never matches `p10/...`.
    const folder = `${this.objectKey(prefix.replace(/\/+$/, ''), 2)}/`;
    let count = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length) {
        // At most 1000 keys per page: exactly what one DeleteObjects takes.
        const res = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        if (res.Errors?.length) {
          const first = res.Errors[0];
          throw new Error(
            `could not delete ${res.Errors.length} objects under ${folder} (${first.Key}: ${first.Code} ${first.Message})`,
          );
        }
        count += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return count;
  }
}
