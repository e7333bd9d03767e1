export * from './secret-box';
export * from './secrets-key';
export * from './secrets.providers';
