// Imported first by main.ts: Apollo must not probe cloud metadata endpoints or phone home.
process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';
