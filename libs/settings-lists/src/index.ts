// One settings-lists engine for the services that have them (crm-people, crm-companies, events):
// system entries in code, tenant entries in a table of the service, lookups and translation, tags
// by text, writes under a per-tenant lock, texts unique ignoring case, usage checks and force.
// Entries may carry structured `data` (events: booking form field sets, cancellation conditions),
// checked by the service's SettingsWrites.dataProblems; afterUpdate runs in S3's transaction.
export * from './definition';
export * from './entry-rules';
export * from './list-page';
export * from './store';
export * from './settings-base';
export * from './settings-lookup';
export * from './settings-reads';
export * from './settings-writes';
