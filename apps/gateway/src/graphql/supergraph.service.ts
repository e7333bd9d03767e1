import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import { I18nService } from 'nestjs-i18n';
import { AppException, ErrorCode, HTTP_STATUS, toAppException, translateError } from '@crm/errors';
import { FALLBACK_LANGUAGE, resolveLanguage } from '@crm/i18n';
import { GATEWAY_CONFIG, GatewayConfig, serviceUrl } from '../config';
import { SERVICE_MODULE } from '../routing/services';
import type { GatewayGraphQLContext, Translate } from './graphql-context';
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
  private server: ApolloServer<GatewayGraphQLContext> | null = null;
  private handler: RouteHandlerMethod | null = null;
  private readonly contexts = new WeakMap<FastifyRequest, GatewayGraphQLContext>();
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt: Promise<void> | null = null;
  private failures = 0;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly i18n: I18nService,
  ) {}

  get composed(): boolean {
    return this.handler !== null;
  }

  onApplicationBootstrap(): void {
    this.attempt = this.compose();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.attempt;
    this.handler = null;
    await this.server?.stop();
    this.server = null;
  }

  /** Runs an authenticated operation, or answers 503 while the supergraph is not composed. */
  async execute(
    req: FastifyRequest,
    reply: FastifyReply,
    context: GatewayGraphQLContext,
  ): Promise<unknown> {
    if (!this.handler) {
      return this.reject(
        req,
        reply,
        new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.supergraphNotReady'),
      );
    }
    this.contexts.set(req, context);
    return this.handler.call(undefined as never, req, reply);
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

  private createServer(): ApolloServer<GatewayGraphQLContext> {
    const subgraphs = this.config.GRAPHQL_SUBGRAPHS.map((name) => ({
      name,
      url: `${serviceUrl(this.config, name)}/graphql`,
    }));
    const gateway = new ApolloGateway({
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
      logger: {
        debug: (m) => this.logger.debug(String(m)),
        info: (m) => this.logger.log(String(m)),
        warn: (m) => this.logger.warn(String(m)),
        // Composition failures are expected while a subgraph starts: reported once per attempt below.
        error: (m) => this.logger.debug(String(m)),
      },
    });
    return new ApolloServer<GatewayGraphQLContext>({
      gateway,
      introspection: true,
      includeStacktraceInErrorResponses: false,
      // Nest's shutdown hooks stop the server; Apollo's own signal handlers would kill the process.
      stopOnTerminationSignals: false,
      plugins: [ApolloServerPluginLandingPageDisabled()],
      formatError: formatGatewayError,
    });
  }

  private async compose(): Promise<void> {
    if (this.stopped) return;
    const server = this.createServer();
    try {
      await server.start();
    } catch (err) {
      this.failures++;
      // Quiet after the first report: a service still starting is normal during a deploy.
      const log = this.failures === 1 || this.failures % 30 === 0 ? 'warn' : 'debug';
      this.logger[log](
        `supergraph not composed (${(err as Error).message}); retrying every ${this.config.SUPERGRAPH_RETRY_MS} ms`,
      );
      await server.stop().catch(() => undefined);
      if (!this.stopped) {
        this.retryTimer = setTimeout(() => {
          this.attempt = this.compose();
        }, this.config.SUPERGRAPH_RETRY_MS);
      }
      return;
    }
    if (this.stopped) {
      await server.stop();
      return;
    }
    this.server = server;
    this.handler = fastifyApolloHandler(server, {
      context: async (req) => this.contexts.get(req)!,
    }) as RouteHandlerMethod;
    this.logger.log(`supergraph composed from ${this.config.GRAPHQL_SUBGRAPHS.join(', ')}`);
  }
}
