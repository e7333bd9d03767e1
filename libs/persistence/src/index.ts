export * from './prisma-adapter';
export * from './prisma-errors';
export * from './record-stamps';
export * from './pg-pool';
export * from './foreign-references';
export * from './in-turn';
export * from './request-transaction';
export * from './idempotent-requests';
