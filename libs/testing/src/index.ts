export * from './headers';
export * from './database';
export * from './ports';
export * from './stack';
export * from './service';
export * from './client';
export * from './fuzz/schema-arbitrary';
