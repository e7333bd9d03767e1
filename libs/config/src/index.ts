export * from './file-storage-config';
export * from './internal-token';
export * from './load-config';
export * from './log-levels';
export * from './service-config';
