export * from './internal-token';
export * from './load-config';
export * from './service-config';
export * from './file-storage-config';
