// Imported first by main.ts: Apollo must not probe cloud metadata endpoints or phone home, and
// tracing (when an OTLP endpoint is set) patches http and undici as they load.
import { startTelemetry } from '@crm/telemetry';

process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';
startTelemetry('gateway');
