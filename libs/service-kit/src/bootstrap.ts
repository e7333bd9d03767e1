import { DynamicModule, INestApplication, Logger, RequestMethod, Type } from '@nestjs/common';
import { listenAddress } from '@crm/config';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import multipart from '@fastify/multipart';
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { I18nService } from 'nestjs-i18n';
import type { ServiceConfig } from '@crm/config';
import { sendErrorEnvelope } from '@crm/errors';
import { natsServerOptions, natsSubscriptionsRegistered } from '@crm/messaging';
import { createAppLogging, prettyLogs, requestLogging } from '@crm/logging';
import { AppMetrics, serveMetrics, startMetricsServer } from '@crm/metrics';
import { asTenant, TENANT_ID_HEADER } from '@crm/request-context';
import { CrmHttpAdapter } from './http-adapter';
import { requireInternalToken } from './internal-token';
import { closeGracefullyOnSignals } from './shutdown';
import { buildOpenApi, OPENAPI_PATH } from './openapi';
import { carryOutKeyedPostsOnce, KEYED_POSTS, type KeyedPostStore } from './keyed-posts';

export interface ServiceBootOptions {
  service: string;
  title: string;
  config: ServiceConfig;
  /** Largest JSON body accepted in bytes (batch operations carry up to 1000 items). */
  jsonLimitBytes?: number;
}

const MB = 1024 * 1024;

/**
 * What Express did and clients rely on: `/people/` is `/people`, paths match in any case. Ids in
 * paths may be long (a malformed one must reach the handler and get its 400, not a 404).
 */
export const ROUTER_OPTIONS = {
  ignoreTrailingSlash: true,
  caseSensitive: false,
  maxParamLength: 1000,
} as const;

/**
 * Each request's queries see the rows of the tenant its X-Service-TenantId names, none without
 * one (tenant-scope in @crm/request-context): REST, GraphQL and `_entities` alike. The header
 * is the gateway's (requireInternalToken refuses any call without its token); a public route
 * that finds its tenant by a token looks it up across tenants, then acts as that tenant.
 */
function scopeRequestsToTheirTenant(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, _reply, done) => {
    const tenant = req.headers[TENANT_ID_HEADER];
    if (typeof tenant === 'string' && tenant) asTenant(tenant.trim(), done);
    else done();
  });
}

/** A provider of the app when one is registered (app.get throws for a missing one). */
function optionalProvider<T>(app: INestApplication, token: symbol): T | undefined {
  try {
    return app.get<T>(token, { strict: false });
  } catch {
    return undefined;
  }
}

/**
 * Creates a service: one process serving REST under /v1/crm, GraphQL at /graphql and NATS
 * (queue group of the service), with its OpenAPI description at /v1/crm/openapi.json.
 */
export async function createServiceApp(
  module: Type<unknown> | DynamicModule,
  opts: ServiceBootOptions,
): Promise<NestFastifyApplication> {
  const adapter = new CrmHttpAdapter({
    bodyLimit: opts.jsonLimitBytes ?? 10 * MB,
    routerOptions: ROUTER_OPTIONS,
    // a call that came without the gateway's X-Request-Id still gets one of its own in the logs
    genReqId: () => randomUUID(),
  });
  const logging = createAppLogging({
    app: opts.service,
    nodeEnv: opts.config.NODE_ENV,
    level: opts.config.LOG_LEVEL,
    pretty: prettyLogs(),
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: logging.nest,
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const metrics = app.get(AppMetrics);
  if (opts.config.REQUEST_OBSERVATION === 'on') {
    requestLogging(fastify, logging, (outcome) => metrics.observeRequest(outcome));
  }
  scopeRequestsToTheirTenant(fastify);
  const keyedPosts = optionalProvider<KeyedPostStore>(app, KEYED_POSTS);
  if (keyedPosts) carryOutKeyedPostsOnce(fastify, keyedPosts);
  // behind the internal token like every other call (requireInternalToken below)
  serveMetrics(fastify, metrics);
  const i18n = app.get<I18nService>(I18nService);
  adapter.useErrorReplier((err, req, reply) => sendErrorEnvelope(i18n, req, reply, err));
  if (opts.config.INTERNAL_TOKEN) {
    requireInternalToken(fastify, opts.config.INTERNAL_TOKEN, i18n);
  }
  // Parses nothing by itself: upload routes read their parts (@crm/storage uploadInterceptor).
  await app.register(multipart);
  app.setGlobalPrefix('v1/crm', {
    exclude: [
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
    ],
  });
  app.connectMicroservice(natsServerOptions(opts.service, opts.config.NATS_URL), {
    inheritAppConfig: true,
  });
  // Built once: the description changes only with a new version of the service. Its ETag lets
  // the gateway revalidate its cached copy with a 304 instead of the whole document.
  const body = JSON.stringify(buildOpenApi(app, opts.title));
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  app
    .getHttpAdapter()
    .getInstance()
    .get(`/${OPENAPI_PATH}`, (req, reply) => {
      void reply.header('ETag', etag).header('Cache-Control', 'no-cache');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });
  return app;
}

/**
 * Starts listening; a failure to reach NATS or the port is reported and stops the process.
 * SIGTERM/SIGINT then drain and close it (closeGracefullyOnSignals).
 */
export async function startServiceApp(app: INestApplication, opts: ServiceBootOptions) {
  const logger = new Logger(opts.service);
  await app.startAllMicroservices();
  // before the port opens (and readiness can say yes): other services' requests find it
  await natsSubscriptionsRegistered(app.getMicroservices());
  if (opts.config.METRICS_PORT) {
    const server = await startMetricsServer(
      app.get(AppMetrics),
      opts.config.METRICS_PORT,
      opts.config.HOST,
    );
    const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    fastify.addHook('onClose', (_instance, done) => void server.close(() => done()));
  }
  await app.listen(opts.config.PORT, opts.config.HOST);
  closeGracefullyOnSignals(app, opts.config, opts.service);
  logger.log(
    `${opts.service} listening on ${listenAddress(opts.config.HOST, opts.config.PORT)} (NATS ${opts.config.NATS_URL})`,
  );
}
