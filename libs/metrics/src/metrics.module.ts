import { DynamicModule, Module } from '@nestjs/common';
import { AppMetrics } from './app-metrics';

/**
 * The app's AppMetrics as a global provider: the modules that own a queue or a pool add their
 * gauges to it (`metrics.gauge(...)`), the bootstrap serves it (serveMetrics).
 */
@Module({})
export class MetricsModule {
  static forRoot(app: string): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: AppMetrics, useValue: new AppMetrics(app) }],
      exports: [AppMetrics],
    };
  }
}
