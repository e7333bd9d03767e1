export * from './file-storage';
export * from './storage-key';
export * from './disk-storage';
export * from './http';
export * from './s3-storage';
