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
import type { UpstreamLookup } from './routing/replicas';
import { assignRequestId } from './routing/request-id';
import { IdempotencyStore } from './routing/idempotency-store';
import { IdempotentCalls } from './routing/idempotent-calls';
import { RateLimits } from './routing/rate-limit/rate-limits.service';
import { RequestTaker, RestProxy, serverWithRestProxy } from './routing/rest-proxy';
import { ServiceForwarder } from './routing/service-forwarder';

/** The admin API is the only JSON read by Nest's routes here; its bodies are small. */
const ADMIN_BODY_LIMIT = 100 * 1024;

/**
 * Creates the gateway (not yet listening). Every /v1/crm/** call is answered before Fastify by
 * the REST proxy (rest-proxy.ts); Nest serves the admin API, health, the OpenAPI document and the
 * docs, and /graphql is a plain Fastify route in a scope of its own (registerGraphqlRoute).
 */
export async function createGatewayApp(
  config: GatewayConfig,
  options: { lookup?: UpstreamLookup } = {},
): Promise<NestFastifyApplication> {
  // The REST proxy takes its calls before Fastify; it is set once the app exists.
  const proxy: { take?: RequestTaker } = {};
  const adapter = new CrmHttpAdapter({
    bodyLimit: ADMIN_BODY_LIMIT,
    routerOptions: ROUTER_OPTIONS,
    serverFactory: serverWithRestProxy(proxy),
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
  if (config.REQUEST_OBSERVATION === 'on') requestLogging(fastify, logging, observe);
  // The gateway's port is public: /metrics answers only with the internal token (else 404).
  serveMetrics(fastify, metrics, (headers) => scrapeAllowed(headers, config.INTERNAL_TOKEN));
  if (config.METRICS_PORT) {
    const server = await startMetricsServer(metrics, config.METRICS_PORT, config.HOST);
    fastify.addHook('onClose', (_instance, done) => void server.close(() => done()));
  }
  const auth = app.get(GatewayAuthService);
  const i18n = app.get<I18nService>(I18nService);
  adapter.useErrorReplier((err, req, reply) => sendErrorEnvelope(i18n, req, reply, err));
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  proxy.take = new RestProxy({
    auth,
    forwarder: app.get(ServiceForwarder),
    // a key is taken over once its call could no longer be answered (the answer time and a margin)
    idempotency: new IdempotentCalls(
      app.get(IdempotencyStore),
      config.UPSTREAM_ANSWER_TIMEOUT_MS + 5000,
    ),
    rateLimits: app.get(RateLimits),
    i18n,
    config,
    logging,
    observe,
    closing: () => closing,
  }).take;
  await app.register(async (scope: FastifyInstance) =>
    registerGraphqlRoute(scope, {
      auth,
      supergraph: app.get(SupergraphService),
      rateLimits: app.get(RateLimits),
    }),
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
