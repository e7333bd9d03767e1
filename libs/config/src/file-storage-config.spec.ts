import { FileStorageConfig } from './file-storage-config';
import { ConfigError, loadConfig } from './load-config';

const base = { PORT: '3001', DATABASE_URL: 'postgresql://u@h:5432/db' };

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(FileStorageConfig, { ...base, ...env });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('FileStorageConfig', () => {
  it('keeps files on disk by default, with S3 settings at their defaults', () => {
    const c = loadConfig(FileStorageConfig, base);
    expect(c).toMatchObject({
      FILE_STORAGE_BACKEND: 'disk',
      FILE_STORAGE_DIR: '.data/files',
      S3_REGION: 'us-east-1',
      S3_PREFIX: '',
      S3_FORCE_PATH_STYLE: false,
    });
    expect(c.S3_BUCKET).toBeUndefined();
  });

  it('reads a complete s3 setting', () => {
    const c = loadConfig(FileStorageConfig, {
      ...base,
      FILE_STORAGE_BACKEND: 's3',
      S3_BUCKET: 'crm-files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-central-1',
      S3_PREFIX: 'crm-people/',
      S3_FORCE_PATH_STYLE: 'false',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(c).toMatchObject({
      FILE_STORAGE_BACKEND: 's3',
      S3_BUCKET: 'crm-files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-central-1',
      S3_PREFIX: 'crm-people/',
      S3_FORCE_PATH_STYLE: false,
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(
      loadConfig(FileStorageConfig, { ...base, S3_FORCE_PATH_STYLE: 'true' }).S3_FORCE_PATH_STYLE,
    ).toBe(true);
  });

  it('refuses s3 without a bucket, naming the variable', () => {
    expect(problems({ FILE_STORAGE_BACKEND: 's3' })).toEqual([
      'environment variable S3_BUCKET is not set: must name the bucket (3-63 characters: a-z, 0-9, dots, hyphens) when FILE_STORAGE_BACKEND is s3',
    ]);
    expect(problems({ FILE_STORAGE_BACKEND: 's3', S3_BUCKET: 'Bad_Bucket' })).toHaveLength(1);
  });

  it('refuses an unknown backend, a bad endpoint or prefix, and half a key pair', () => {
    expect(problems({ FILE_STORAGE_BACKEND: 'nfs' })[0]).toMatch(/FILE_STORAGE_BACKEND/);
    expect(problems({ S3_ENDPOINT: 'minio:9000' })[0]).toMatch(/S3_ENDPOINT is "minio:9000"/);
    for (const prefix of ['/x', '../x', 'a//b', 'a b'])
      expect(problems({ S3_PREFIX: prefix })[0]).toMatch(/S3_PREFIX/);
    expect(problems({ S3_ACCESS_KEY_ID: 'id' })).toEqual([
      'environment variable S3_SECRET_ACCESS_KEY is not set: must be set together with S3_ACCESS_KEY_ID',
    ]);
    expect(problems({ S3_SECRET_ACCESS_KEY: 'secret' })[0]).toMatch(/S3_ACCESS_KEY_ID is not set/);
  });
});
