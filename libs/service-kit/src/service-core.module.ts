import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AllExceptionsFilter, createValidationPipe } from '@crm/errors';
import { CrmI18nModule } from '@crm/i18n';
import { MessagingModule } from '@crm/messaging';
import { MetricsModule } from '@crm/metrics';
import { RequestContextGuard } from '@crm/request-context';
import type { ServiceConfig } from '@crm/config';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

export interface ServiceCoreOptions {
  /** The service's name: NATS queue group, logs, 503 messages. */
  service: string;
  config: ServiceConfig;
  /** The app's own translation folders (texts of its domain). */
  localeDirs?: string[];
}

/**
 * What every service has in common, registered once: config, i18n, metrics, NATS messaging, the request
 * context guard, validation and the one exception filter for REST, GraphQL and NATS. The envelope
 * is added by the HTTP adapter (CrmHttpAdapter): no global interceptor runs per request.
 */
@Module({})
export class ServiceCoreModule {
  static forRoot(options: ServiceCoreOptions): DynamicModule {
    const { config } = options;
    return {
      module: ServiceCoreModule,
      global: true,
      imports: [
        CrmI18nModule.forRoot(options.localeDirs ?? []),
        MetricsModule.forRoot(options.service),
        MessagingModule.forRoot({
          service: options.service,
          url: config.NATS_URL,
          requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
        }),
      ],
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: APP_GUARD, useClass: RequestContextGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
      exports: [SERVICE_CONFIG],
    };
  }
}
