import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, HTTP_STATUS, toAppException, translateError } from '@crm/errors';
import { FALLBACK_LANGUAGE, resolveLanguage } from '@crm/i18n';
import { GATEWAY_CONFIG, GatewayConfig, serviceUrl } from '../config';
import { SERVICE_MODULE } from '../routing/services';
import type { GatewayGraphQLContext, Translate } from './graphql-context';
import { OperationRunner } from './operation-runner';
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

/** Every error leaves with extensions.code and extensions.statusCode, and without stack traces. */
export function formatGatewayError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const { stacktrace: _stack, exception: _exception, ...extensions } = formatted.extensions ?? {};
  const code = typeof extensions.code === 'string' ? extensions.code : 'INTERNAL_SERVER_ERROR';
  const statusCode =
    extensions.statusCode ?? HTTP_STATUS[code as ErrorCode] ?? APOLLO_STATUS[code] ?? 500;
  return { ...formatted, extensions: { ...extensions, code, statusCode } };
}

/**
 * The supergraph: composed from the configured subgraphs by introspection. A subgraph that is
 * down at start does not stop the gateway: composition is retried in the background and
 * /graphql answers 503 until it succeeds; once composed, the subgraphs are polled for changes.
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

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly i18n: I18nService,
  ) {}

  get composed(): boolean {
    return this.runner !== null;
  }

  onApplicationBootstrap(): void {
    this.attempt = this.compose();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.attempt;
    this.runner = null;
    await this.gateway?.stop();
    this.gateway = null;
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
    if (body.errors) body.errors = body.errors.map(formatGatewayError);
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

  private createGateway(): ApolloGateway {
    const subgraphs = this.config.GRAPHQL_SUBGRAPHS.map((name) => ({
      name,
      url: `${serviceUrl(this.config, name)}/graphql`,
    }));
    return new ApolloGateway({
      supergraphSdl: new IntrospectAndCompose({
        subgraphs,
        pollIntervalInMs: this.config.SUPERGRAPH_POLL_MS || undefined,
      }),
      buildService: ({ name, url }) => {
        const service = this.config.GRAPHQL_SUBGRAPHS.find((s) => s === name)!;
        return new SubgraphDataSource({
          service,
          module: SERVICE_MODULE[service],
          url: url!,
          internalToken: this.config.INTERNAL_TOKEN,
          translate: this.translate,
        });
      },
      logger: this.gatewayLogger,
    });
  }

  private async compose(): Promise<void> {
    if (this.stopped) return;
    const gateway = this.createGateway();
    let loaded: Awaited<ReturnType<ApolloGateway['load']>>;
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
    this.gateway = gateway;
    const runner = (schema: GraphQLSchema) =>
      new OperationRunner(schema, loaded.executor, { logger: this.gatewayLogger });
    this.runner = runner(loaded.schema);
    // Polling found a changed subgraph: new schema, new document cache.
    gateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
      if (this.runner) this.runner = runner(apiSchema);
    });
    this.logger.log(`supergraph composed from ${this.config.GRAPHQL_SUBGRAPHS.join(', ')}`);
  }
}
