import { IsInt, Max, Min } from 'class-validator';
import { FileStorageConfig } from '@crm/config';

/** Where profile images and documents are stored: FileStorageConfig (FILE_STORAGE_BACKEND, disk or s3). */
export class CrmPeopleConfig extends FileStorageConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3001;

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

  /**
   * People lists (P1, P2): a list of at most this many people reports its exact total; a longer
   * one reports PostgreSQL's planner estimate (metaData.totalResultsExact false), since counting a
   * million rows costs more than the page itself. Filtered lists are always counted exactly.
   */
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  PEOPLE_LIST_EXACT_TOTAL_MAX: number = 10_000;
}
