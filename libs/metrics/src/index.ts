export * from './app-metrics';
export * from './metrics.module';
export * from './metrics-endpoint';
