export * from './call-context';
