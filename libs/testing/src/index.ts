export * from './headers';
export * from './database';
export * from './ports';
export * from './nats-server';
export * from './stack';
export * from './service';
export * from './client';
export * from './images';
