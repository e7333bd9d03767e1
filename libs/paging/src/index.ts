export * from './page-query';
export * from './sort';
