export * from './headers';
export * from './request-context';
export * from './request-context.guard';
