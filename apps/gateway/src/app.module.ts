import { MetricsModule } from '@crm/metrics';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import path from 'node:path';
import { AllExceptionsFilter, createValidationPipe } from '@crm/errors';
import { CrmI18nModule } from '@crm/i18n';
import { MessagingModule } from '@crm/messaging';
import { AdminModule } from './admin/admin.module';
import { GATEWAY_CONFIG, GatewayConfig } from './config';
import { GraphqlModule } from './graphql/graphql.module';
import { HealthModule } from './health/health.module';
import { OpenApiModule } from './openapi/openapi.module';
import { defaultLookup, UPSTREAM_LOOKUP, UpstreamLookup } from './routing/replicas';
import { RoutingModule } from './routing/routing.module';

export const SERVICE_NAME = 'gateway';

/**
 * What ServiceCoreModule gives a service, minus what the gateway must not have: no database, no
 * global request-context guard (the admin API, docs and health take no tenant headers; the
 * proxy and /graphql check them themselves).
 */
@Module({})
class GatewayCoreModule {
  static forRoot(config: GatewayConfig, lookup: UpstreamLookup): DynamicModule {
    return {
      module: GatewayCoreModule,
      global: true,
      imports: [
        CrmI18nModule.forRoot([path.join(__dirname, 'i18n')]),
        MetricsModule.forRoot(SERVICE_NAME),
        MessagingModule.forRoot({
          service: SERVICE_NAME,
          url: config.NATS_URL,
          requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
        }),
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: UPSTREAM_LOOKUP, useValue: lookup },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
      exports: [GATEWAY_CONFIG, UPSTREAM_LOOKUP],
    };
  }
}

@Module({})
export class AppModule {
  /** `lookup`: how the services' host names are resolved (tests map a name to loopback addresses). */
  static forRoot(config: GatewayConfig, lookup: UpstreamLookup = defaultLookup): DynamicModule {
    return {
      module: AppModule,
      imports: [
        GatewayCoreModule.forRoot(config, lookup),
        HealthModule,
        AdminModule,
        GraphqlModule,
        OpenApiModule,
        RoutingModule,
      ],
    };
  }
}
