import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | null = null;

/**
 * Starts OpenTelemetry tracing when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT
 * or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; off otherwise, and the SDK is not even loaded): spans for
 * HTTP calls in and out (the gateway's calls to the services through undici), SQL (pg) within a
 * traced call, and the spans the code adds (outbox relay, consumers, NATS requests; spans.ts).
 * Exported over OTLP/HTTP; the OTEL_* variables (sampler, batch delay, headers) apply. Must run
 * before the modules it instruments are loaded: the first import of each app's main.ts.
 */
export function startTelemetry(service: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (sdk) return true;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  const role = env.PROCESS_ROLE;
  // a worker process is its own service in the traces: events-worker, bookings-invitations-mail-worker
  const name = role && role !== 'api' && role !== 'all' ? `${service}-${role}` : service;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on, before the modules it patches
  const { createSdk } = require('./otel-sdk') as typeof import('./otel-sdk');
  sdk = createSdk(name);
  sdk.start();
  return true;
}

/**
 * Whether spans are recorded in this process: code that would add a span per message asks first,
 * so nothing is built for it when tracing is off.
 */
export const tracingEnabled = (): boolean => sdk !== null;

/** Sends the spans still buffered (at the end of a graceful stop). */
export async function shutdownTelemetry(): Promise<void> {
  const running = sdk;
  sdk = null;
  await running?.shutdown().catch(() => undefined);
}
