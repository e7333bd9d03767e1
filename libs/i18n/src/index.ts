export * from './language';
export * from './i18n.module';
