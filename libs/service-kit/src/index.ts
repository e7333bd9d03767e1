export * from './service-core.module';
export * from './subgraph';
export * from './bootstrap';
export * from './health.controller';
export * from './openapi';
export * from './api-envelope.decorator';
export * from './http-adapter';
export * from './internal-token';
