export * from './app-logger';
export * from './redaction';
export * from './request-logging';
export * from './outage-log';
