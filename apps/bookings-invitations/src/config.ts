import { IsInt, IsNotEmpty, IsString, Max, Min } from 'class-validator';
import { ServiceConfig } from '@crm/config';

export class BookingsInvitationsConfig extends ServiceConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3004;

  /** Folder of the service's files (relative: from the working directory). */
  @IsString()
  @IsNotEmpty()
  FILE_STORAGE_DIR: string = '.data/files';

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
