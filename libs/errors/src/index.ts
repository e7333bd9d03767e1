export * from './error-code';
export * from './app.exception';
export * from './translate';
export * from './validation';
export * from './all-exceptions.filter';
export * from './input-check';
export * from './database-unavailable';
