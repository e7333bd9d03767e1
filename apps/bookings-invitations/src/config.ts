import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { FileStorageConfig, toBool } from '@crm/config';
import { SecretsKeyRule } from '@crm/secrets';

/**
 * What one process of the service runs (PROCESS_ROLE):
 * - `api`: REST, GraphQL, NATS consumers, the outbox relay and the import worker; no mail worker;
 * - `mail-worker`: only the mail worker (renders the PDFs, sends the mail outbox), and on PORT
 *   nothing but /health/live and /health/ready;
 * - `all`: both in one process (the default: the app run alone behaves as it always did).
 * `npm start`, docker-compose.yml and deploy/k8s run an `api` and a `mail-worker` process from
 * the same build, so rendering and sending never compete with bookings for one event loop.
 */
export const PROCESS_ROLES = ['all', 'api', 'mail-worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/**
 * FileStorageConfig: the same file settings as the other services (FILE_STORAGE_BACKEND, disk
 * or s3), ready for files of this service; it keeps none in a FileStorage today.
 */
export class BookingsInvitationsConfig extends FileStorageConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3004;

  /**
   * Keys that seal the events' private signing keys in the database (@crm/secrets): `keyId:base64`
   * of 32 bytes, comma-separated, the sealing key first (the others only open; see the README on
   * rotation). Required with NODE_ENV=production; elsewhere unset means the public development key.
   */
  @SecretsKeyRule()
  SECRETS_KEY?: string;

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

  /** Mail worker: the SMTP server (smtp:// or smtps://, credentials in the URL). */
  @IsString()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL: string = 'smtp://127.0.0.1:2525';

  /** Mail worker: the sender of every mail (`Name <address>` or an address). */
  @IsString()
  @Matches(/^(.*<)?[^\s<>@]+@[^\s<>@]+>?$/, { message: 'must be an address or Name <address>' })
  MAIL_FROM: string = 'CRM Events <events@crm.localhost>';

  /** Mail worker: how often it looks for due mails when no commit woke it. */
  @IsInt()
  @Min(50)
  @Max(600000)
  MAIL_POLL_INTERVAL_MS: number = 5000;

  /** Mail worker: mails claimed at once (per replica). */
  @IsInt()
  @Min(1)
  @Max(1000)
  MAIL_BATCH_SIZE: number = 50;

  /** Mail worker: SMTP connections (mails sent in parallel) per replica. */
  @IsInt()
  @Min(1)
  @Max(50)
  MAIL_CONCURRENCY: number = 4;

  /**
   * Mail worker: the first retry's delay; the later ones keep their ratio (30 s, 2 min, 10 min,
   * 1 h, 6 h, then every 12 h up to about 3 days). Tests shorten it.
   */
  @IsInt()
  @Min(10)
  @Max(3600000)
  MAIL_RETRY_FIRST_MS: number = 30000;

  /**
   * How often expired seat holds are put back on sale and unpaid bookings past their payment
   * deadline are cancelled (every replica sweeps; 0: never, for tests that sweep by hand).
   */
  @IsInt()
  @Min(0)
  @Max(600000)
  SALE_SWEEP_INTERVAL_MS: number = 500;

  /**
   * One writer per tenant across replicas (bookings/sales-routing.ts): how long a replica's
   * claim to write a tenant's public bookings and holds lasts unless renewed (it renews at half
   * of it while it sells). A replica that dies unannounced (kill -9) is noticed at once when
   * NATS has no subscriber for it; this bounds the wait when it hangs instead.
   */
  @IsInt()
  @Min(1000)
  @Max(600000)
  SALES_LEASE_MS: number = 10000;

  /**
   * How long a replica waits for the tenant's writer on another replica to answer a booking it
   * forwarded before answering 503 (the booking may have been written: a retry with its
   * Idempotency-Key gets its answer).
   */
  @IsInt()
  @Min(1000)
  @Max(600000)
  SALES_FORWARD_TIMEOUT_MS: number = 30000;

  /**
   * Mail worker: how long a claimed mail is hidden from other workers while this one sends it.
   * Longer than a send can take (SMTP timeouts: 15 s to connect, 60 s per socket read); a worker
   * that dies (kill -9, OOM) leaves its claimed mails for the next claim after this. Tests
   * shorten it.
   */
  @IsInt()
  @Min(1000)
  @Max(86400000)
  MAIL_LEASE_MS: number = 600000;

  /** Mail worker: off on a replica that should not send (mails stay queued for the others). */
  @Transform(toBool)
  @IsBoolean()
  MAIL_WORKER_ENABLED: boolean = true;

  /** What this process runs: `api`, `mail-worker` or `all` (see PROCESS_ROLES above). */
  @IsIn(PROCESS_ROLES)
  PROCESS_ROLE: ProcessRole = 'all';

  /**
   * Role `mail-worker`: the process's nice value (0 normal ... 19 lowest priority), set at start.
   * On a host it shares with the API (npm start, one compose host) the API gets the CPU first.
   */
  @IsInt()
  @Min(0)
  @Max(19)
  MAIL_WORKER_NICE: number = 0;

  /**
   * The public link (IN9 mails, IN3/IN4 `publicUrl`) of an invitation of an event WITHOUT a
   * website: `{token}` is replaced by the invitation's token. Otherwise an invitation links to its
   * website's invitation link, or without one to its event's website's (a portal page; events
   * service, carried in the event's snapshot; linkTemplateOf). A portal
   * page at this address shows it (IN1) and offers accept (`?action=accept`: a booking with the
   * token) and reject (`?action=reject`: IN2). Empty (the default): an event without a website
   * has no page to open an invitation on, so its invitation mails are refused (409 naming each
   * invitation) and `publicUrl` is null; the API's own IN1 is no such page (a browser cannot send
   * its integration headers, and a link cannot reject).
   */
  @IsString()
  @ValidateIf((c: { PUBLIC_INVITATION_URL?: string }) => !!c.PUBLIC_INVITATION_URL)
  @Matches(/\{token\}/, { message: 'PUBLIC_INVITATION_URL must contain {token}' })
  PUBLIC_INVITATION_URL: string = '';

  /**
   * The link of a waiting-list offer mail for an entry WITHOUT a website (or one the event's copy
   * no longer knows): `{token}` is replaced by the entry's token. An entry with a website links to
   * that website's page `{websiteUrl}/waiting-list/{token}` (events service, carried in the
   * event's snapshot), which the portal serves with the public waiting-list read and a booking
   * with the offer's hold token (BK1 `holdToken`).
   */
  @IsString()
  @IsNotEmpty()
  PUBLIC_WAITING_LIST_URL: string =
    'http://localhost:3000/v1/crm/bookings/public/waiting-list/{token}';

  /** Import worker (IN14): how often it looks for queued jobs when no upload woke it. */
  @IsInt()
  @Min(50)
  @Max(60000)
  IMPORT_POLL_INTERVAL_MS: number = 2000;
}
