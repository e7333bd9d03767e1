export * from './load-config';
export * from './service-config';
