import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { InternalTokenRule } from './internal-token';
import { LOG_LEVELS, LogLevelName } from './log-levels';

/**
 * An env string -> boolean (1, true, yes, on / 0, false, no, off; any case), for
 * `@Transform(toBool)` on a config field. Reads the raw text of `obj`: with implicit conversion
 * `value` is already Boolean("false") === true. Anything else stays a string and fails IsBoolean.
 */
export const toBool = ({ value, obj, key }: { value: unknown; obj: object; key: string }) => {
  const raw = (obj as Record<string, unknown>)[key] ?? value;
  if (typeof raw !== 'string') return raw;
  const text = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  return raw;
};

/**
 * Settings every app reads, the gateway and the services alike. Every field has an explicit
 * type: the conversion from env strings reads it from the emitted metadata.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** Least severe log level printed; unset: log in production, warn in tests, debug otherwise. */
  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: LogLevelName;

  /**
   * The address to listen on: every interface by default (containers, Kubernetes), where the
   * gateway reaches the service over the network. `npm start` sets 127.0.0.1 (SERVICES_HOST).
   */
  @IsString()
  @MinLength(1)
  HOST: string = '0.0.0.0';

  @IsString()
  @Matches(/^(nats|tls|ws|wss):\/\//, {
    message: 'must be a nats:// URL (comma-separated for a cluster)',
  })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /** How long a NATS request may take before the caller answers 503. */
  @IsInt()
  @Min(50)
  @Max(60000)
  NATS_REQUEST_TIMEOUT_MS: number = 3000;

  /**
   * The secret of X-Internal-Token: the gateway sends it on every call to a service; a service
   * with one serves only calls carrying it, REST and GraphQL alike (not /health). Required with
   * NODE_ENV=production.
   */
  @InternalTokenRule()
  INTERNAL_TOKEN?: string;

  /**
   * /metrics on a port of its own, answered without any token: for a Prometheus that scrapes pods
   * directly. Not published by compose nor in any Service. Unset: /metrics only on the app's port,
   * with the internal token.
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  METRICS_PORT?: number;

  /**
   * off: an HTTP request gets no request line, no request metrics and no request context (its
   * id and trace on the lines logged meanwhile and in the NATS headers it sends). Only for
   * measuring what they cost (`npm run bench -- observability` runs both side by side); an
   * operator never wants it. Other lines and the metrics read at a scrape stay.
   */
  @IsIn(['on', 'off'])
  REQUEST_OBSERVATION: 'on' | 'off' = 'on';

  /** See shutdownDrainMs. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600000)
  SHUTDOWN_DRAIN_MS?: number;

  /** See ShutdownSettings.closeTimeoutMs. */
  @IsInt()
  @Min(100)
  @Max(600000)
  SHUTDOWN_TIMEOUT_MS: number = 10000;
}

/** Settings every service reads. Services extend it with their own. */
export class ServiceConfig extends AppConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT!: number;

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL!: string;

  @Transform(toBool)
  @IsBoolean()
  LOG_REQUESTS: boolean = false;

  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_POOL_SIZE: number = 10;
}

/** What the graceful shutdown reads of a service's (or the gateway's) settings. */
export interface ShutdownSettings {
  NODE_ENV: 'development' | 'production' | 'test';
  SHUTDOWN_DRAIN_MS?: number;
  /**
   * After the drain, how long closing (workers, NATS, in-flight requests, database) may take
   * before the process exits anyway (with 1).
   */
  SHUTDOWN_TIMEOUT_MS: number;
}

/**
 * How long a process keeps serving after SIGTERM, answering readiness 503 and Connection: close,
 * so load balancers and the gateway move its traffic elsewhere before it closes: SHUTDOWN_DRAIN_MS,
 * by default 5000 in production and 0 elsewhere (tests and `npm start` stop at once).
 */
export function shutdownDrainMs(config: ShutdownSettings): number {
  return config.SHUTDOWN_DRAIN_MS ?? (config.NODE_ENV === 'production' ? 5000 : 0);
}
