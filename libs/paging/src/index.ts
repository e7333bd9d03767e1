export * from './page-query';
export * from './sort';
export * from './ids-input';
export * from './search';
export * from './cursor';
export * from './query-boolean';
