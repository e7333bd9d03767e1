import { GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { DocumentNode, GraphQLError, Kind } from 'graphql';
import type { Dispatcher } from 'undici';
import { AppException, ErrorCode, HTTP_STATUS } from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { AccessKind, ModuleName } from '@crm/messaging';
import { CALLER_ID_HEADER, INTERNAL_TOKEN_HEADER } from '@crm/request-context';
import { assertModule, assertScope } from '../auth/gateway-auth.service';
import type { ReplicaAgent } from '../routing/replicas';
import { ServiceCall } from '../routing/service-call';
import type { ServiceName } from '../routing/services';
import type { GatewayGraphQLContext, Translate } from './graphql-context';

/** Client headers the subgraphs need: the tenant headers, the language and the request id. */
export function forwardedHeaderNames(headers: Record<string, unknown>): string[] {
  return Object.keys(headers).filter(
    (name) =>
      name.startsWith('x-integration-') ||
      name === 'x-service-tenantid' ||
      name === 'accept-language' ||
      name === 'x-request-id',
  );
}

type FetcherResponse = Parameters<RemoteGraphQLDataSource['errorFromResponse']>[0];
type Fetcher = NonNullable<RemoteGraphQLDataSource['fetcher']>;

/**
 * The fetch Apollo's data source needs (status, headers, text/json), on undici's request API:
 * Apollo's default (make-fetch-happen) and even undici's own fetch (web streams) cost the gateway
 * more CPU per operation than everything else it does for that operation.
 */
function requestHeaders(
  headers: Iterable<[string, string]> | Record<string, string> | undefined,
): Record<string, string> {
  if (!headers) return {};
  const iterable = Symbol.iterator in headers;
  return iterable
    ? Object.fromEntries(headers as Iterable<[string, string]>)
    : (headers as Record<string, string>);
}

/** The headers of a subgraph's answer, read-only: all Apollo's data source asks of them is get(). */
class AnswerHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
}

/** Subgraph URLs taken apart once (there are a handful), not on every fetch. */
const targets = new Map<string, { origin: string; host: string; path: string }>();
function targetOf(url: string): { origin: string; host: string; path: string } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = {
      origin: parsed.origin,
      host: parsed.host,
      path: `${parsed.pathname}${parsed.search}`,
    };
    targets.set(url, target);
  }
  return target;
}

/**
 * Whether Apollo's request body (query first: RemoteGraphQLDataSource.sendRequest) holds a query,
 * which may be sent twice, rather than a mutation, which may not. An operation the test cannot
 * tell (a fragment first) counts as a mutation.
 */
export function isQueryBody(body: string | undefined): boolean {
  return body !== undefined && /^\{"query":"(?:\s|\\[nrt])*(?:query\b|\{)/.test(body);
}

/**
 * Whether one subgraph fetch reads or writes, from the fetch's own operation (not the client's:
 * the entity fetches that complete a mutation's answer in other subgraphs are queries). The
 * document when the planner hands it over, else the text it sends, which the planner writes
 * starting with its operation keyword (`mutation`, `query`) or a bare selection set; anything
 * else (a subscription, a fragment first) counts as a write, the safe side.
 */
export function fetchAccess(query: string | undefined, document?: DocumentNode): AccessKind {
  const operation = document?.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operation) return operation.operation === 'query' ? 'read' : 'write';
  return query !== undefined && /^\s*(?:query\b|\{)/.test(query) ? 'read' : 'write';
}

async function readAll(body: Buffer | NodeJS.ReadableStream): Promise<string> {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The fetch of a subgraph on the gateway's replica-aware dispatcher (replicas.ts): a call that
 * failed before its answer is retried once where safe, a query counting as idempotent.
 */
function subgraphFetcher(dispatcher: ReplicaAgent): Fetcher {
  const fetch = async (
    url: string,
    init: {
      method?: string;
      headers?: Iterable<[string, string]> | Record<string, string>;
      body?: string;
    },
  ) => {
    const { origin, host, path } = targetOf(url);
    const call = new ServiceCall();
    dispatcher.dispatch(
      {
        origin,
        path,
        method: (init.method ?? 'POST') as Dispatcher.HttpMethod,
        // Host named, not the replica's address the connection goes to.
        headers: { ...requestHeaders(init.headers), host },
        body: init.body,
      },
      call,
      isQueryBody(init.body),
    );
    const answer = await call.answer;
    const text = await readAll(answer.body);
    return {
      url,
      status: answer.statusCode,
      statusText: '',
      ok: answer.statusCode >= 200 && answer.statusCode < 300,
      headers: new AnswerHeaders(answer.headers as Record<string, string | string[] | undefined>),
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
    };
  };
  return fetch as unknown as Fetcher;
}

export interface SubgraphOptions {
  service: ServiceName;
  module: ModuleName;
  url: string;
  internalToken?: string;
  translate: Translate;
  /** The gateway's replica-aware connections to the subgraphs. */
  dispatcher: ReplicaAgent;
}

function graphQLError(err: AppException, translate: Translate, lang: Language | undefined) {
  return new GraphQLError(translate(err, lang), {
    extensions: { code: err.code, statusCode: HTTP_STATUS[err.code] },
  });
}

/**
 * One subgraph behind the gateway. Before each fetch it checks that the tenant's tariff holds
 * the subgraph's module and that the key's scopes allow the fetch (`<module>:write` for a
 * mutation, `<module>:read` otherwise), so a query touching a module outside either is refused
 * with FORBIDDEN for that part, and sends the caller's identity on.
 */
export class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayGraphQLContext> {
  private readonly options: SubgraphOptions;

  constructor(options: SubgraphOptions) {
    super({ url: options.url, fetcher: subgraphFetcher(options.dispatcher) });
    this.options = options;
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayGraphQLContext>): void {
    const headers = options.request.http?.headers;
    if (!headers) return;
    if (this.options.internalToken) headers.set(INTERNAL_TOKEN_HEADER, this.options.internalToken);
    // Only incoming operations carry a caller (not schema loading or health checks).
    if (!('incomingRequestContext' in options)) return;
    const { caller, headers: incoming } = options.context;
    try {
      assertModule(caller.modules, this.options.module);
      assertScope(
        caller.scopes,
        this.options.module,
        fetchAccess(options.request.query, options.document),
      );
    } catch (err) {
      throw graphQLError(err as AppException, this.options.translate, caller.context.language);
    }
    for (const name of forwardedHeaderNames(incoming)) {
      const value = incoming[name];
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    if (caller.keyId) headers.set(CALLER_ID_HEADER, caller.keyId);
  }

  /**
   * A subgraph answering with an HTTP error status: keep its own first error (code, status)
   * rather than Apollo's generic "400: Bad Request".
   */
  override async errorFromResponse(response: FetcherResponse): Promise<GraphQLError> {
    const generic = await super.errorFromResponse(response);
    const body = (generic.extensions.response as { body?: unknown } | undefined)?.body as
      { errors?: { message?: unknown; extensions?: Record<string, unknown> }[] } | undefined;
    const first = Array.isArray(body?.errors) ? body.errors[0] : undefined;
    if (!first || typeof first.message !== 'string') return generic;
    return new GraphQLError(first.message, {
      extensions: {
        ...first.extensions,
        statusCode: first.extensions?.statusCode ?? response.status,
      },
    });
  }

  /** A subgraph that cannot be reached becomes a 503 naming it, like REST. */
  override didEncounterError(error: Error, ...rest: unknown[]): void {
    if (error instanceof GraphQLError) throw error;
    const context = rest[2] as GatewayGraphQLContext | undefined;
    throw graphQLError(
      new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.serviceUnreachable', {
        service: this.options.service,
      }),
      this.options.translate,
      context?.caller?.context.language,
    );
  }
}
