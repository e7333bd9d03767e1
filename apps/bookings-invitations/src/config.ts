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

  /**
   * The public link of an invitation (IN9 mails, IN3/IN4 `publicUrl`): `{token}` is replaced by
   * the invitation's token. A portal page at this address shows it (IN1) and offers accept
   * (`?action=accept`: a booking with the token) and reject (`?action=reject`: IN2).
   */
  @IsString()
  @IsNotEmpty()
  PUBLIC_INVITATION_URL: string = 'http://localhost:3000/v1/crm/invitations/public/{token}';

  /** Import worker (IN14): how often it looks for queued jobs when no upload woke it. */
  @IsInt()
  @Min(50)
  @Max(60000)
  IMPORT_POLL_INTERVAL_MS: number = 2000;
}
