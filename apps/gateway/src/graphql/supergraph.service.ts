import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLFormattedError,
  GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  ValidationRule,
} from 'graphql';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, HTTP_STATUS, toAppException, translateError } from '@crm/errors';
import { FALLBACK_LANGUAGE, resolveLanguage } from '@crm/i18n';
import { GATEWAY_CONFIG, GatewayConfig, graphqlDisclosure, serviceUrl } from '../config';
import {
  CONNECT_TIMEOUT_MS,
  ReplicaAgent,
  UPSTREAM_LOOKUP,
  UpstreamLookup,
} from '../routing/replicas';
import { SERVICE_MODULE, SERVICE_NAMES } from '../routing/services';
import type { GatewayGraphQLContext, Translate } from './graphql-context';
import { clarifyError, GraphqlLimits, limitRules, limitsOf } from './graphql-limits';
import { LoadedGateway, OperationRunner } from './operation-runner';
import { SubgraphDataSource } from './subgraph.data-source';

/** Apollo's own codes (parse, validation...) get the HTTP status REST would answer with. */
const APOLLO_STATUS: Record<string, number> = {
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  BAD_USER_INPUT: 400,
  BAD_REQUEST: 400,
  OPERATION_RESOLUTION_FAILURE: 400,
  PERSISTED_QUERY_NOT_FOUND: 400,
  PERSISTED_QUERY_NOT_SUPPORTED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
};

/** The supergraph composed at build time (`npm run supergraph`), copied beside the build. */
export const SUPERGRAPH_FILE = path.join(__dirname, '..', 'supergraph.graphql');

/**
 * Every error leaves with extensions.code and extensions.statusCode, without stack traces, with
 * the token limit named, and without field suggestions when they are off.
 */
export function formatGatewayError(
  error: GraphQLFormattedError,
  options: { suggestions: boolean } = { suggestions: true },
): GraphQLFormattedError {
  const formatted = clarifyError(error, options);
  const { stacktrace: _stack, exception: _exception, ...extensions } = formatted.extensions ?? {};
  const code = typeof extensions.code === 'string' ? extensions.code : 'INTERNAL_SERVER_ERROR';
  const statusCode =
    extensions.statusCode ?? HTTP_STATUS[code as ErrorCode] ?? APOLLO_STATUS[code] ?? 500;
  return { ...formatted, extensions: { ...extensions, code, statusCode } };
}

/**
 * The supergraph. By default read from the file composed at build time, at start (a file that
 * does not load stops the start): no subgraph needs to be up, and one that is down fails only the
 * fields it resolves (503 naming it, see SubgraphDataSource). With SUPERGRAPH_SOURCE=introspect
 * (development) it is composed from the running GRAPHQL_SUBGRAPHS instead: retried in the
 * background while one does not answer (/graphql answers 503 until then), then polled for changes.
 */
@Injectable()
export class SupergraphService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Supergraph');
  private gateway: ApolloGateway | null = null;
  private runner: OperationRunner | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt: Promise<void> | null = null;
  private failures = 0;
  private readonly gatewayLogger = {
    debug: (m: unknown) => this.logger.debug(String(m)),
    info: (m: unknown) => this.logger.log(String(m)),
    warn: (m: unknown) => this.logger.warn(String(m)),
    // Composition failures are expected while a subgraph starts: reported once per attempt below.
    error: (m: unknown) => this.logger.debug(String(m)),
  };

  private readonly disclosure: { introspection: boolean; suggestions: boolean };
  private readonly limits: GraphqlLimits;
  /** The limits, and no introspection when it is off: run once per distinct query text. */
  private readonly rules: ValidationRule[];

  /** Connections to the subgraphs' replicas (replicas.ts), shared by every subgraph. */
  private readonly dispatcher: ReplicaAgent;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly i18n: I18nService,
    @Optional() @Inject(UPSTREAM_LOOKUP) lookup?: UpstreamLookup,
  ) {
    this.dispatcher = new ReplicaAgent({
      lookup,
      // a subgraph that does not begin answering in time fails its part (as the REST proxy's 504)
      pool: {
        connect: { timeout: CONNECT_TIMEOUT_MS },
        headersTimeout: config.UPSTREAM_ANSWER_TIMEOUT_MS,
        keepAliveTimeout: 4000,
      },
    });
    this.disclosure = graphqlDisclosure(config);
    this.limits = limitsOf(config);
    this.rules = [
      ...limitRules(this.limits),
      ...(this.disclosure.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
    ];
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.SUPERGRAPH_SOURCE === 'introspect') {
      this.attempt = this.compose();
      return;
    }
    const file = this.config.SUPERGRAPH_FILE ?? SUPERGRAPH_FILE;
    const gateway = this.createGateway(readFileSync(file, 'utf8'));
    const loaded = await gateway.load();
    this.serve(gateway, loaded, `supergraph loaded from ${file}`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.attempt;
    this.runner = null;
    await this.gateway?.stop();
    this.gateway = null;
    await this.dispatcher.destroy();
  }

  /** Runs an authenticated operation, or answers 503 while the supergraph is not composed. */
  async execute(
    req: FastifyRequest,
    reply: FastifyReply,
    context: GatewayGraphQLContext,
  ): Promise<unknown> {
    const runner = this.runner;
    if (!runner) {
      return this.reject(
        req,
        reply,
        new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.supergraphNotReady'),
      );
    }
    const { status, body } = await runner.run(req.body, context);
    if (body.errors) body.errors = body.errors.map((e) => formatGatewayError(e, this.disclosure));
    return reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));
  }

  /** An error before execution, GraphQL-shaped, with the matching HTTP status. */
  reject(req: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
    const err = toAppException(error, this.logger);
    const { message } = translateError(
      this.i18n,
      err,
      resolveLanguage(req.headers['accept-language']),
    );
    return reply.status(err.status).send({
      errors: [{ message, extensions: { code: err.code, statusCode: err.status } }],
    });
  }

  private readonly translate: Translate = (err, lang) =>
    translateError(this.i18n, err, lang ?? FALLBACK_LANGUAGE).message;

  /** Introspection of the running subgraphs (SUPERGRAPH_SOURCE=introspect). */
  private introspection(): IntrospectAndCompose {
    return new IntrospectAndCompose({
      subgraphs: this.config.GRAPHQL_SUBGRAPHS.map((name) => ({
        name,
        url: `${serviceUrl(this.config, name)}/graphql`,
      })),
      pollIntervalInMs: this.config.SUPERGRAPH_POLL_MS || undefined,
    });
  }

  private createGateway(supergraphSdl: string | IntrospectAndCompose): ApolloGateway {
    return new ApolloGateway({
      supergraphSdl,
      // Each subgraph at the URL of this configuration, not the one written in the file.
      buildService: ({ name }) => {
        const service = SERVICE_NAMES.find((s) => s === name);
        if (!service) throw new Error(`the supergraph names ${name}, which is not a service`);
        return new SubgraphDataSource({
          service,
          module: SERVICE_MODULE[service],
          url: `${serviceUrl(this.config, service)}/graphql`,
          internalToken: this.config.INTERNAL_TOKEN,
          translate: this.translate,
          dispatcher: this.dispatcher,
        });
      },
      logger: this.gatewayLogger,
    });
  }

  private serve(gateway: ApolloGateway, loaded: LoadedGateway, message: string): void {
    this.gateway = gateway;
    const runner = (schema: GraphQLSchema) =>
      new OperationRunner(schema, loaded.executor, {
        logger: this.gatewayLogger,
        rules: this.rules,
        maxTokens: this.limits.tokens,
      });
    this.runner = runner(loaded.schema);
    // Polling found a changed subgraph: new schema, new document cache.
    gateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
      if (this.runner) this.runner = runner(apiSchema);
    });
    this.logger.log(message);
  }

  private async compose(): Promise<void> {
    if (this.stopped) return;
    const gateway = this.createGateway(this.introspection());
    let loaded: LoadedGateway;
    try {
      loaded = await gateway.load();
    } catch (err) {
      this.failures++;
      // Quiet after the first report: a service still starting is normal during a deploy.
      const log = this.failures === 1 || this.failures % 30 === 0 ? 'warn' : 'debug';
      this.logger[log](
        `supergraph not composed (${(err as Error).message}); retrying every ${this.config.SUPERGRAPH_RETRY_MS} ms`,
      );
      await gateway.stop().catch(() => undefined);
      if (!this.stopped) {
        this.retryTimer = setTimeout(() => {
          this.attempt = this.compose();
        }, this.config.SUPERGRAPH_RETRY_MS);
      }
      return;
    }
    if (this.stopped) {
      await gateway.stop();
      return;
    }
    this.serve(
      gateway,
      loaded,
      `supergraph composed from ${this.config.GRAPHQL_SUBGRAPHS.join(', ')}`,
    );
  }
}
