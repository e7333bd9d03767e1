export * from './app-logger';
export * from './redaction';
export * from './request-context';
export * from './request-logging';
export * from './outage-log';
