export * from './headers';
export * from './internal-token';
export * from './request-context';
export * from './request-context.guard';
export * from './tenant-scope';
