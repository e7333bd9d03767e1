import { Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { AdminTokenRule, AppConfig } from '@crm/config';
import { SERVICE_NAMES, ServiceName } from './routing/services';

const URL_RULE = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const noTrailingSlash = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(/\/+$/, '') : value;
/** true/false (1/0, yes/no, on/off) from the raw text; anything else fails IsBoolean. */
const toBool = ({ obj, key }: { obj: Record<string, unknown>; key: string }) => {
  const raw = obj[key];
  if (typeof raw !== 'string') return raw;
  const text = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  return raw;
};

/**
 * The gateway's settings. It has no database, so it does not extend ServiceConfig (whose
 * DATABASE_URL is required) but AppConfig, which the services share (NODE_ENV, HOST, NATS,
 * INTERNAL_TOKEN, log level, shutdown).
 */
export class GatewayConfig extends AppConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  /** Operator credential of the admin API (`Authorization: Bearer <ADMIN_TOKEN>`). */
  @AdminTokenRule()
  ADMIN_TOKEN!: string;

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

  /**
   * Keyed calls (REST and /graphql): requests per API key in any 60 s, counted by all gateway
   * replicas together; beyond it 429 with Retry-After. The default (1,000/s sustained) is a guard
   * against a runaway client, far above what the repository's e2e tests send; the benchmarks set
   * it higher still (tools/bench/stack.mjs) so that they measure the counting, never a refusal.
   */
  @IsInt()
  @Min(1)
  @Max(1000000000)
  KEY_RATE_LIMIT_PER_MINUTE: number = 60000;

  /**
   * How often a replica reports its rate-limit counts to the others (core NATS); a shorter
   * interval narrows the overshoot a key can get across replicas, a longer one costs less.
   */
  @IsInt()
  @Min(20)
  @Max(10000)
  RATE_LIMIT_SYNC_MS: number = 200;

  /**
   * The replicas that count together: those of one gateway deployment (one NATS subject per
   * group). Another deployment on the same NATS (staging beside production, a test) takes its own.
   */
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  RATE_LIMIT_GROUP: string = 'gateway';

  /**
   * Public operations (`<segment>/public/**`, no API key): requests per client address in any
   * 60 s, counted by all gateway replicas together; beyond it 429 with Retry-After.
   */
  @IsInt()
  @Min(1)
  @Max(1000000)
  PUBLIC_RATE_LIMIT_PER_MINUTE: number = 300;

  /**
   * Public operations: requests a client may send at once after being idle, i.e. at most this
   * many in the time PUBLIC_RATE_LIMIT_PER_MINUTE takes to earn them (60 at 300/min: 12 s); no
   * effect unless below PUBLIC_RATE_LIMIT_PER_MINUTE.
   */
  @IsInt()
  @Min(1)
  @Max(1000000)
  PUBLIC_RATE_LIMIT_BURST: number = 60;

  /**
   * Proxies in front of the gateway (ingress, load balancer) whose X-Forwarded-For is believed:
   * the client address is taken that many hops from the right. 0: the connection's address.
   */
  @IsInt()
  @Min(0)
  @Max(10)
  TRUST_PROXY_HOPS: number = 0;

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

  /**
   * How long a service may take to begin its answer (status and headers) before the caller gets
   * a 504 naming it. A stuck service otherwise holds the caller's connection for ever. Once the
   * answer has begun it may stream for as long as it takes (downloads, exports).
   */
  @IsInt()
  @Min(100)
  @Max(3600000)
  UPSTREAM_ANSWER_TIMEOUT_MS: number = 60000;

  /**
   * Where the supergraph comes from. `file` (default): the one composed at build time from the
   * committed subgraph schemas (`npm run supergraph`), loaded at start; a subgraph that is down
   * fails only its own fields. `introspect` (development): composed at run time from the running
   * GRAPHQL_SUBGRAPHS, retried until they answer and polled for changes.
   */
  @IsIn(['file', 'introspect'])
  SUPERGRAPH_SOURCE: 'file' | 'introspect' = 'file';

  /** Another supergraph file for SUPERGRAPH_SOURCE=file (default: the one built with the app). */
  @IsOptional()
  @IsString()
  SUPERGRAPH_FILE?: string;

  /** SUPERGRAPH_SOURCE=introspect: services composed into the supergraph (comma list). */
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
  GRAPHQL_SUBGRAPHS: ServiceName[] = [
    'crm-people',
    'crm-companies',
    'events',
    'bookings-invitations',
    'tenant-info',
  ];

  /** SUPERGRAPH_SOURCE=introspect: pause between attempts while a subgraph is not reachable. */
  @IsInt()
  @Min(100)
  @Max(600000)
  SUPERGRAPH_RETRY_MS: number = 2000;

  /** SUPERGRAPH_SOURCE=introspect: how often the subgraphs are introspected again; 0 = never. */
  @IsInt()
  @Min(0)
  @Max(3600000)
  SUPERGRAPH_POLL_MS: number = 30000;

  /** Schema introspection (__schema, __type); unset: on, except with NODE_ENV=production. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  GRAPHQL_INTROSPECTION?: boolean;

  /**
   * The GraphQL IDE (GraphiQL) at GET /graphql for browsers; unset: on, except with
   * NODE_ENV=production.
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  GRAPHQL_IDE?: boolean;

  /** "Did you mean ...?" in validation errors; unset: on, except with NODE_ENV=production. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  GRAPHQL_SUGGESTIONS?: boolean;

  /** Deepest selection nesting of an operation (fragments counted as a level, as graphql-armor). */
  @IsInt()
  @Min(1)
  @Max(100)
  GRAPHQL_MAX_DEPTH: number = 10;

  /** Most aliases in an operation. */
  @IsInt()
  @Min(0)
  @Max(1000)
  GRAPHQL_MAX_ALIASES: number = 15;

  /** Most lexical tokens in a document (checked while parsing, before anything else). */
  @IsInt()
  @Min(50)
  @Max(100000)
  GRAPHQL_MAX_TOKENS: number = 1000;

  /** Highest graphql-armor cost (object 2, scalar 1, x1.5 per level of nesting). */
  @IsInt()
  @Min(10)
  @Max(1000000)
  GRAPHQL_MAX_COST: number = 2000;

  /** Most directives (@include, @skip, ...) in an operation. */
  @IsInt()
  @Min(0)
  @Max(1000)
  GRAPHQL_MAX_DIRECTIVES: number = 20;
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

/** Introspection and field suggestions: as configured, else off in production only. */
export function graphqlDisclosure(config: GatewayConfig): {
  introspection: boolean;
  suggestions: boolean;
} {
  const byDefault = config.NODE_ENV !== 'production';
  return {
    introspection: config.GRAPHQL_INTROSPECTION ?? byDefault,
    suggestions: config.GRAPHQL_SUGGESTIONS ?? byDefault,
  };
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
