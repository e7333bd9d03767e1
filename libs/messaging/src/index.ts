export * from './subjects';
export * from './nats-options';
export * from './message-bus';
export * from './messaging.module';
export * from './contracts/tenant-info';
export * from './contracts/crm';
export * from './contracts/events';
export * from './outbox';
