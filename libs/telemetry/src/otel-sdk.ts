import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/** Probes and scrapes come every few seconds and say nothing about a call: no spans. */
const QUIET = /^\/(health\/(live|ready)|metrics)\b/;

/** The SDK as startTelemetry configures it (loaded only when tracing is on). */
export function createSdk(serviceName: string): NodeSDK {
  return new NodeSDK({
    serviceName,
    // no cloud detectors: they probe metadata endpoints at start
    autoDetectResources: false,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => QUIET.test(req.url ?? ''),
        // calls of the process's own (object storage, SMTP checks...) only within a trace
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // SQL within a traced call or message only: the relay's polling is not a trace each time
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
}
