import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { json } from 'express';
import { ADMIN_SECURITY } from './admin/admin.controller';
import { AppModule } from './app.module';
import type { GatewayConfig } from './config';
import { OpenApiService } from './openapi/openapi.service';
import { requestIdMiddleware } from './routing/request-id';

/**
 * Creates the gateway (not yet listening). No global body parser: /v1/crm/** is streamed to the
 * services untouched; only the admin API (here) and /graphql (in its controller) read JSON.
 */
export async function createGatewayApp(config: GatewayConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: config.NODE_ENV === 'test' ? ['error', 'warn'] : undefined,
  });
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.use('/v1/admin', json({ limit: '100kb' }));
  app.enableShutdownHooks();

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
