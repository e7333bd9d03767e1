import { IsInt, Max, Min } from 'class-validator';
import { FileStorageConfig } from '@crm/config';

/** Where logos and documents are stored: FileStorageConfig (FILE_STORAGE_BACKEND, disk or s3). */
export class CrmCompaniesConfig extends FileStorageConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3002;

  /** Outbox relay: how often it looks for unpublished events when no commit woke it. */
  @IsInt()
  @Min(50)
  @Max(60000)
  OUTBOX_POLL_INTERVAL_MS: number = 1000;

  /** Outbox relay: events published per transaction. */
  @IsInt()
  @Min(1)
  @Max(1000)
  OUTBOX_BATCH_SIZE: number = 100;
}
