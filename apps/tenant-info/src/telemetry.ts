// Imported first by main.ts: tracing (when an OTLP endpoint is set) patches http and pg as they load.
import { startTelemetry } from '@crm/telemetry';

startTelemetry('tenant-info');
