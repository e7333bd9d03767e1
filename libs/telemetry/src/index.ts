export * from './start';
export * from './spans';
