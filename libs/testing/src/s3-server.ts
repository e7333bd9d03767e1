import {
  CreateBucketCommand,
  ListObjectsV2Command,
  ListObjectsV2CommandOutput,
  S3Client,
} from '@aws-sdk/client-s3';
import { ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** s3rver's fixed credentials. */
const ACCESS_KEY = 'S3RVER';

/** A real S3-compatible server (s3rver) for tests, on 127.0.0.1 with a temporary directory. */
export interface TestS3Server {
  /** `http://127.0.0.1:<port>` (S3_ENDPOINT; path-style addressing). */
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The FILE_STORAGE_* / S3_* variables of a service storing into `bucket` under `prefix`. */
  env(bucket: string, prefix?: string): Record<string, string>;
  /** A client on it, for looking at what was stored. */
  client: S3Client;
  createBucket(name: string): Promise<void>;
  /** Every object key of `bucket` (under `prefix`), sorted. */
  keys(bucket: string, prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Starts s3rver (in a child process: see s3-server.child.cjs) with the given buckets. Storage
 * tests run against it instead of mocking S3, so requests, errors and paging are real.
 */
export async function startS3Server(buckets: string[] = []): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'crm-s3rver-'));
  const child: ChildProcess = fork(path.join(__dirname, 's3-server.child.cjs'), [], {
    execArgv: ['--openssl-legacy-provider'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port?: number; error?: string }) =>
        m.port ? resolve(m.port) : reject(new Error(`s3rver did not start: ${m.error}`)),
      );
      child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
      child.send({ directory, buckets });
    });
  } catch (err) {
    child.kill();
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const credentials = { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY };
  const client = new S3Client({ endpoint, region, credentials, forcePathStyle: true });
  return {
    endpoint,
    region,
    credentials,
    client,
    env: (bucket, prefix = '') => ({
      FILE_STORAGE_BACKEND: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      ...(prefix ? { S3_PREFIX: prefix } : {}),
    }),
    createBucket: async (name) => {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    keys: async (bucket, prefix) => {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page: ListObjectsV2CommandOutput = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    stop: async () => {
      client.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.connected) child.disconnect();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
