import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { I18nService } from 'nestjs-i18n';
import { createAppLogging, prettyLogs, requestLogging } from '@crm/logging';
import { AppMetrics, scrapeAllowed, serveMetrics, startMetricsServer } from '@crm/metrics';
import { sendErrorEnvelope } from '@crm/errors';
import { CrmHttpAdapter, ROUTER_OPTIONS } from '@crm/service-kit';
import { ADMIN_SECURITY } from './admin/admin.controller';
import { AppModule, SERVICE_NAME } from './app.module';
import { GatewayAuthService } from './auth/gateway-auth.service';
import type { GatewayConfig } from './config';
import { graphqlIdeEnabled, registerGraphqlIde } from './graphql/graphql-ide';
import { registerGraphqlRoute } from './graphql/graphql.route';
import { SupergraphService } from './graphql/supergraph.service';
import { OpenApiService } from './openapi/openapi.service';
import { ProxyService } from './routing/proxy.service';
import { FastHandler, fastProxyHandler, serverWithFastPath } from './routing/fast-proxy';
import { registerProxyRoute, RestProxy } from './routing/proxy.route';
import type { UpstreamLookup } from './routing/replicas';
import { assignRequestId } from './routing/request-id';

/** The admin API is the only JSON read by Nest's routes here; its bodies are small. */
const ADMIN_BODY_LIMIT = 100 * 1024;

/**
 * Creates the gateway (not yet listening). Nest serves the admin API, health, the OpenAPI
 * document and the docs; /v1/crm/** and /graphql are plain Fastify routes in scopes of their own
 * (see registerProxyRoute, registerGraphqlRoute), and REST GETs are answered before Fastify
 * (fastProxyHandler).
 */
export async function createGatewayApp(
  config: GatewayConfig,
  options: { lookup?: UpstreamLookup } = {},
): Promise<NestFastifyApplication> {
  // REST GETs skip Fastify (fast-proxy.ts); the handler is set once the app exists.
  const fast: { handler?: FastHandler } = {};
  const adapter = new CrmHttpAdapter({
    bodyLimit: ADMIN_BODY_LIMIT,
    routerOptions: ROUTER_OPTIONS,
    serverFactory: serverWithFastPath(fast),
    ...(config.TRUST_PROXY_HOPS > 0 ? { trustProxy: config.TRUST_PROXY_HOPS } : {}),
  });
  const logging = createAppLogging({
    app: SERVICE_NAME,
    nodeEnv: config.NODE_ENV,
    level: config.LOG_LEVEL,
    pretty: prettyLogs(),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, options.lookup),
    adapter,
    { logger: logging.nest },
  );
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.addHook('onRequest', assignRequestId);
  const metrics = app.get(AppMetrics);
  const observe = (outcome: Parameters<AppMetrics['observeRequest']>[0]) =>
    metrics.observeRequest(outcome);
  // after assignRequestId: its lines carry the id it chose
  requestLogging(fastify, logging, observe);
  // The gateway's port is public: /metrics answers only with the internal token (else 404).
  serveMetrics(fastify, metrics, (headers) => scrapeAllowed(headers, config.INTERNAL_TOKEN));
  if (config.METRICS_PORT) {
    const server = await startMetricsServer(metrics, config.METRICS_PORT, config.HOST);
    fastify.addHook('onClose', (_instance, done) => void server.close(() => done()));
  }
  const auth = app.get(GatewayAuthService);
  const i18n = app.get<I18nService>(I18nService);
  adapter.useErrorReplier((err, req, reply) => sendErrorEnvelope(i18n, req, reply, err));
  const restProxy = new RestProxy({ auth, proxy: app.get(ProxyService), i18n, config });
  await app.register(async (scope: FastifyInstance) => {
    // The services read the bodies: this scope passes every content type through unparsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    // What Fastify refuses before the route runs (a Content-Type header it cannot parse) gets
    // the envelope too, not Fastify's own body.
    scope.setErrorHandler((err, req, reply) => sendErrorEnvelope(i18n, req, reply, err));
    registerProxyRoute(scope, restProxy, i18n);
  });
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fast.handler = fastProxyHandler(
    restProxy,
    i18n,
    () => closing,
    config.TRUST_PROXY_HOPS,
    logging,
    observe,
  );
  await app.register(async (scope: FastifyInstance) =>
    registerGraphqlRoute(scope, { auth, supergraph: app.get(SupergraphService) }),
  );
  // GET /graphql for browsers (GRAPHQL_IDE): a scope of its own, without /graphql's key check.
  if (graphqlIdeEnabled(config))
    await app.register(async (scope: FastifyInstance) => registerGraphqlIde(scope));

  const own = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('CRM and event management API')
      .setDescription(
        'All services behind the gateway. /v1/crm/** needs X-Integration-Name, ' +
          'X-Integration-Provider and X-Service-TenantId, and Authorization: Bearer <API key> ' +
          '(except operations under .../public/...). /v1/admin/** needs the administrator token.',
      )
      .setVersion('1.0.0')
      .addTag('Administration', 'Tenants, API keys and tariffs: operator only (ADMIN_TOKEN)')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key of the tenant' })
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the gateway' },
        ADMIN_SECURITY,
      )
      .build(),
  );
  const openapi = app.get(OpenApiService);
  openapi.useOwnDocument(own);
  // The UI and its assets are served from @nestjs/swagger's local copy (no CDN).
  SwaggerModule.setup('docs', app, own, {
    raw: false,
    customSiteTitle: 'CRM API',
    patchDocumentOnRequest: () => openapi.merged(),
  });
  return app;
}
