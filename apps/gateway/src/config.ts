import { Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { InternalTokenRule } from '@crm/config';
import { SERVICE_NAMES, ServiceName } from './routing/services';

const URL_RULE = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const noTrailingSlash = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(/\/+$/, '') : value;

/**
 * The gateway's settings. It has no database, so it does not extend ServiceConfig (whose
 * DATABASE_URL is required) but reads the same names for what it shares with the services.
 */
export class GatewayConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  /** The address to listen on: every interface (the gateway is what clients call). */
  @IsString()
  @MinLength(1)
  HOST: string = '0.0.0.0';

  @IsString()
  @Matches(/^(nats|tls|ws|wss):\/\//, {
    message: 'must be a nats:// URL (comma-separated for a cluster)',
  })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /** How long a NATS request (key verification, admin calls) may take before 503. */
  @IsInt()
  @Min(50)
  @Max(60000)
  NATS_REQUEST_TIMEOUT_MS: number = 3000;

  /** Operator credential of the admin API (`Authorization: Bearer <ADMIN_TOKEN>`). */
  @IsString()
  @MinLength(16)
  ADMIN_TOKEN!: string;

  /**
   * Sent as X-Internal-Token on every call to a service (REST, GraphQL, OpenAPI). Required with
   * NODE_ENV=production, where the services refuse calls without it.
   */
  @InternalTokenRule()
  INTERNAL_TOKEN?: string;

  /** How long an API key verification (valid or not) is remembered; 0 disables the cache. */
  @IsInt()
  @Min(0)
  @Max(600000)
  KEY_CACHE_TTL_MS: number = 5000;

  /**
   * While tenant-info cannot be asked (NATS down), a key verified valid less than this long ago
   * is still accepted (stale-if-error); 0 turns it off. A revocation is heard when NATS is back.
   */
  @IsInt()
  @Min(0)
  @Max(3600000)
  KEY_CACHE_STALE_MS: number = 900000;

  @Transform(noTrailingSlash)
  @IsUrl(URL_RULE)
  CRM_PEOPLE_URL: string = 'http://127.0.0.1:3001';

  @Transform(noTrailingSlash)
  @IsUrl(URL_RULE)
  CRM_COMPANIES_URL: string = 'http://127.0.0.1:3002';

  @Transform(noTrailingSlash)
  @IsUrl(URL_RULE)
  EVENTS_URL: string = 'http://127.0.0.1:3003';

  @Transform(noTrailingSlash)
  @IsUrl(URL_RULE)
  BOOKINGS_INVITATIONS_URL: string = 'http://127.0.0.1:3004';

  @Transform(noTrailingSlash)
  @IsUrl(URL_RULE)
  TENANT_INFO_URL: string = 'http://127.0.0.1:3005';

  /**
   * How old the cached OpenAPI description may get before a request starts revalidating every
   * service's part (If-None-Match; the answer is served from the cache meanwhile).
   */
  @IsInt()
  @Min(100)
  @Max(86400000)
  OPENAPI_REFRESH_MS: number = 30000;

  /** Services composed into the supergraph (comma list of service names). */
  @Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) =>
    typeof obj[key] === 'string'
      ? (obj[key] as string)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : obj[key],
  )
  @IsArray()
  @ArrayNotEmpty()
  @IsIn(SERVICE_NAMES, { each: true })
  GRAPHQL_SUBGRAPHS: ServiceName[] = ['crm-people', 'crm-companies', 'tenant-info'];

  /** Pause between attempts to compose the supergraph while a subgraph is not reachable. */
  @IsInt()
  @Min(100)
  @Max(600000)
  SUPERGRAPH_RETRY_MS: number = 2000;

  /** Once composed, how often the subgraphs are introspected again for changes; 0 = never. */
  @IsInt()
  @Min(0)
  @Max(3600000)
  SUPERGRAPH_POLL_MS: number = 30000;
}

/** The base URL of a service, from the configuration. */
export function serviceUrl(config: GatewayConfig, service: ServiceName): string {
  const urls: Record<ServiceName, string> = {
    'crm-people': config.CRM_PEOPLE_URL,
    'crm-companies': config.CRM_COMPANIES_URL,
    events: config.EVENTS_URL,
    'bookings-invitations': config.BOOKINGS_INVITATIONS_URL,
    'tenant-info': config.TENANT_INFO_URL,
  };
  return urls[service];
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
