export * from './prisma-adapter';
export * from './prisma-errors';
