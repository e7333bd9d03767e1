import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
} from '@opentelemetry/api';
import { tracingEnabled } from './start';

const tracer = () => trace.getTracer('crm');

/** The W3C trace context of the current span as headers (empty when nothing is traced). */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Reads a header from the shapes messages carry them in. */
type HeaderSource = Record<string, string> | { get(name: string): string } | null | undefined;

function getter(source: HeaderSource) {
  return {
    keys: (): string[] => [],
    get: (_carrier: unknown, key: string): string | undefined => {
      if (!source) return undefined;
      const value =
        typeof (source as { get?: unknown }).get === 'function'
          ? (source as { get(name: string): string }).get(key)
          : (source as Record<string, string>)[key];
      return value || undefined;
    },
  };
}

/**
 * Runs `fn` in a span whose parent is the trace context in `headers` (a message's, an outbox
 * row's), or the current one when they carry none; the span ends with `fn`, failed when it throws.
 */
export async function inSpan<T>(
  name: string,
  kind: 'producer' | 'consumer' | 'client' | 'server' | 'internal',
  headers: HeaderSource,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = headers
    ? propagation.extract(context.active(), headers, getter(headers))
    : context.active();
  const spanKind = {
    producer: SpanKind.PRODUCER,
    consumer: SpanKind.CONSUMER,
    client: SpanKind.CLIENT,
    server: SpanKind.SERVER,
    internal: SpanKind.INTERNAL,
  }[kind];
  return tracer().startActiveSpan(name, { kind: spanKind, attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Adds attributes to the current span (the request's), when there is one. `attributes` is a
 * function so that nothing is built when tracing is off (every request calls this).
 */
export function annotateSpan(attributes: () => Attributes): void {
  if (!tracingEnabled()) return;
  trace.getActiveSpan()?.setAttributes(attributes());
}

/**
 * The id of the current trace, when one is recorded. Without tracing there is none, and the
 * OpenTelemetry API's global lookup is skipped (every request and message asks).
 */
export function currentTraceId(): string | undefined {
  if (!tracingEnabled()) return undefined;
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}
