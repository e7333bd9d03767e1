import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { ServiceConfig, toBool } from '@crm/config';

export class EventsConfig extends ServiceConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3003;

  /** Folder of event files and of event, website and template images (relative: from the working directory). */
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
}
