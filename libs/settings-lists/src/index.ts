// One settings-lists engine for the services that have them (crm-people, crm-companies): system
// entries in code, tenant entries in a table of the service, lookups and translation, tags by
// text, writes under a per-tenant lock, texts unique ignoring case, usage checks and force.
export * from './definition';
export * from './entry-rules';
export * from './list-page';
export * from './store';
export * from './settings-base';
export * from './settings-lookup';
export * from './settings-reads';
export * from './settings-writes';
