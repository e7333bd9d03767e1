export * from './envelope';
export * from './envelope.reply';
