import { DynamicModule, INestApplication, Logger, RequestMethod, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Express } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServiceConfig } from '@crm/config';
import { natsServerOptions } from '@crm/messaging';
import { buildOpenApi, OPENAPI_PATH } from './openapi';

export interface ServiceBootOptions {
  service: string;
  title: string;
  config: ServiceConfig;
  /** Largest JSON body accepted (batch operations carry up to 1000 items). */
  jsonLimit?: string;
}

/**
 * Creates a service: one process serving REST under /v1/crm, GraphQL at /graphql and NATS
 * (queue group of the service), with its OpenAPI description at /v1/crm/openapi.json.
 */
export async function createServiceApp(
  module: Type<unknown> | DynamicModule,
  opts: ServiceBootOptions,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, {
    logger: opts.config.NODE_ENV === 'test' ? ['error', 'warn'] : undefined,
  });
  app.useBodyParser('json', { limit: opts.jsonLimit ?? '10mb' });
  app.setGlobalPrefix('v1/crm', {
    exclude: [
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
    ],
  });
  app.connectMicroservice(natsServerOptions(opts.service, opts.config.NATS_URL), {
    inheritAppConfig: true,
  });
  app.enableShutdownHooks();
  const doc = buildOpenApi(app, opts.title);
  (app.getHttpAdapter().getInstance() as Express).get(
    `/${OPENAPI_PATH}`,
    (_req, res) => void res.json(doc),
  );
  return app;
}

/** Starts listening; a failure to reach NATS or the port is reported and stops the process. */
export async function startServiceApp(app: INestApplication, opts: ServiceBootOptions) {
  const logger = new Logger(opts.service);
  await app.startAllMicroservices();
  await app.listen(opts.config.PORT, '0.0.0.0');
  logger.log(`${opts.service} listening on ${await app.getUrl()} (NATS ${opts.config.NATS_URL})`);
}
