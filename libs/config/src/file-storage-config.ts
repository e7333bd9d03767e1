import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsString, Matches, ValidateIf } from 'class-validator';
import { ServiceConfig, toBool } from './service-config';

/**
 * Settings of a service that stores files (profile images, documents, logos, event images):
 * where the bytes go. One class for every such service, read by @crm/files'
 * fileStorageProvider. `disk` needs a volume shared by all replicas (ReadWriteMany on
 * Kubernetes); `s3` needs none.
 */
export class FileStorageConfig extends ServiceConfig {
  /** `disk` (FILE_STORAGE_DIR, the default) or `s3` (a bucket of S3 or an S3-compatible server). */
  @IsIn(['disk', 's3'])
  FILE_STORAGE_BACKEND: 'disk' | 's3' = 'disk';

  /** disk: the folder of the service's files; a relative path resolves from the working directory. */
  @IsString()
  @IsNotEmpty()
  FILE_STORAGE_DIR: string = '.data/files';

  /** s3: the bucket (required with FILE_STORAGE_BACKEND=s3; checked with HeadBucket at start). */
  @ValidateIf(
    (c: FileStorageConfig) => c.FILE_STORAGE_BACKEND === 's3' || c.S3_BUCKET !== undefined,
  )
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
    message:
      'S3_BUCKET must name the bucket (3-63 characters: a-z, 0-9, dots, hyphens) when FILE_STORAGE_BACKEND is s3',
  })
  S3_BUCKET?: string;

  /** s3: the server's URL (MinIO, Ceph, s3rver...); unset: AWS, for S3_REGION. */
  @ValidateIf((c: FileStorageConfig) => c.S3_ENDPOINT !== undefined)
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'S3_ENDPOINT must be an http(s):// URL' })
  S3_ENDPOINT?: string;

  @IsString()
  @Matches(/^[a-z0-9-]+$/, { message: 'S3_REGION must be a region name such as us-east-1' })
  S3_REGION: string = 'us-east-1';

  /**
   * s3: put before every key (`crm-people/`), so several services can share one bucket. Plain
   * segments (letters, digits, `.`, `_`, `-`) separated by `/`; empty: keys at the bucket's root.
   */
  @IsString()
  @Matches(/^$|^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}(\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199})*\/?$/, {
    message: 'S3_PREFIX must be plain segments separated by / (letters, digits, ., _, -)',
  })
  S3_PREFIX: string = '';

  /** s3: the bucket in the URL's path, not its host name: true for MinIO and s3rver. */
  @Transform(toBool)
  @IsBoolean()
  S3_FORCE_PATH_STYLE: boolean = false;

  /**
   * s3: static credentials, both or neither. Unset: the SDK's default chain (AWS_* variables,
   * IRSA / pod identity on Kubernetes, instance roles).
   */
  @ValidateIf((c: FileStorageConfig) => c.S3_SECRET_ACCESS_KEY !== undefined)
  @IsString({ message: 'S3_ACCESS_KEY_ID must be set together with S3_SECRET_ACCESS_KEY' })
  S3_ACCESS_KEY_ID?: string;

  @ValidateIf((c: FileStorageConfig) => c.S3_ACCESS_KEY_ID !== undefined)
  @IsString({ message: 'S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID' })
  S3_SECRET_ACCESS_KEY?: string;
}
