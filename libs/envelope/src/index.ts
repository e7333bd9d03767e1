export * from './envelope';
export * from './envelope.interceptor';
