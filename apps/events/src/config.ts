import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { FileStorageConfig, toBool } from '@crm/config';
import { SecretsKeyRule } from '@crm/secrets';

/**
 * What one process of the service runs (PROCESS_ROLE):
 * - `api`: REST, GraphQL, NATS requests, the outbox relay; no consumers, no webhook sending;
 * - `worker`: the background work, and on PORT nothing but /health/live and /health/ready: the
 *   consumers of the platform's events (the webhook fan-out, the file copies of duplicated
 *   events), the webhook delivery worker, the outbox relay;
 * - `all`: both in one process (the default: the app run alone behaves as it always did).
 * `npm start`, docker-compose.yml and deploy/k8s run an `api` and a `worker` process (events-worker)
 * from the same build: during an on-sale every booking becomes a webhook, and that work waits
 * for the CPU the bookings need instead of taking it (see the README's on-sale figures).
 */
export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/** Where event files and event, website and template images are stored: FileStorageConfig (FILE_STORAGE_BACKEND, disk or s3). */
export class EventsConfig extends FileStorageConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3003;

  /**
   * Keys that seal the webhook secrets in the database (@crm/secrets): `keyId:base64` of 32 bytes,
   * comma-separated, the sealing key first (the others only open; see the README on rotation).
   * Required with NODE_ENV=production; elsewhere unset means the public development key.
   */
  @SecretsKeyRule()
  SECRETS_KEY?: string;

  /** What this process runs: `api`, `worker` or `all` (see PROCESS_ROLES above). */
  @IsIn(PROCESS_ROLES)
  PROCESS_ROLE: ProcessRole = 'all';

  /**
   * Role `worker`: the process's nice value (0 normal ... 19 lowest priority), set at start. On
   * a host it shares with the APIs (npm start, one compose host) the APIs get the CPU first.
   */
  @IsInt()
  @Min(0)
  @Max(19)
  WORKER_NICE: number = 0;

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

  /** Public answers: `Cache-Control: public, max-age=` this many seconds. */
  @IsInt()
  @Min(0)
  @Max(86400)
  PUBLIC_CACHE_MAX_AGE_S: number = 60;

  /** iCalendar (E8, W16): the host part of every event's stable UID (`<eventId>@<host>`). */
  @IsString()
  @Matches(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/i)
  ICAL_UID_HOST: string = 'crm-events';

  /** W16: the feed lists published events that end at most this many days ago (and all later). */
  @IsInt()
  @Min(0)
  @Max(3660)
  ICAL_FEED_PAST_DAYS: number = 30;

  /**
   * Webhook endpoints may resolve to loopback, private or link-local addresses (SSRF guard off).
   * For tests and closed networks only.
   */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: boolean = false;

  /**
   * Webhook retries: seconds to wait after each failed attempt, comma separated (±10 % jitter).
   * The default, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, is 10 attempts over about
   * 3.1 days; after the last one the delivery is `failed` (I4/I5 send it again).
   */
  @IsString()
  @Matches(/^\s*\d+(\s*,\s*\d+){0,49}\s*$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE_S must be a comma list of 1 to 50 whole seconds',
  })
  WEBHOOK_RETRY_SCHEDULE_S: string = '5,300,1800,7200,18000,36000,50400,72000,86400';

  /** An endpoint whose deliveries have failed without a success for this long is disabled. */
  @IsInt()
  @Min(1)
  @Max(90 * 86400)
  WEBHOOK_DISABLE_AFTER_FAILING_S: number = 3 * 86400;

  /** Webhook delivery worker: how often it looks for due deliveries (every replica runs one). */
  @IsInt()
  @Min(20)
  @Max(60000)
  WEBHOOK_WORKER_POLL_MS: number = 1000;

  /** Webhook delivery worker: deliveries claimed (and sent side by side) per round. */
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_WORKER_BATCH_SIZE: number = 10;

  /** A webhook request that has no complete answer after this long fails (and is retried). */
  @IsInt()
  @Min(100)
  @Max(60000)
  WEBHOOK_TIMEOUT_MS: number = 10000;

  /**
   * How long past WEBHOOK_TIMEOUT_MS a claimed delivery stays with the worker that claimed it
   * (its round sends, then records); a worker that died meanwhile loses it to another after that.
   */
  @IsInt()
  @Min(100)
  @Max(600000)
  WEBHOOK_LEASE_MARGIN_MS: number = 60000;

  /** Endpoints a tenant may register (I1 POST beyond: 409). */
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_MAX_ENDPOINTS_PER_TENANT: number = 20;

  /**
   * Webhook messages (with their deliveries and attempt log) older than this many days are
   * deleted, once no delivery of them is pending; I3 shows and I5 replays this far back.
   */
  @IsInt()
  @Min(1)
  @Max(3650)
  WEBHOOK_RETENTION_DAYS: number = 30;
}
