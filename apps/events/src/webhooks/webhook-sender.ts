import net from 'node:net';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { guardedLookup, hostOf, isPublicAddress } from './address-guard';

/** What one HTTP attempt gave. */
export interface AttemptResult {
  responseCode: number | null;
  durationMs: number;
  /** A network error, or the start of the answer of a non-2xx (never more than EXCERPT). */
  error: string | null;
  succeeded: boolean;
  /** 410 Gone: the receiver asks never to be called again. */
  gone: boolean;
}

export interface OutgoingMessage {
  /** The webhook-id: the message id, the same on every retry and redelivery. */
  id: string;
  url: string;
  body: string;
  secret: string;
  /** The secret before the last rotation while its overlap lasts: a second signature. */
  previousSecret: string | null;
}

/** How much of a receiver's answer is kept (in the attempt log). */
const EXCERPT = 300;

/**
 * Signs (Standard Webhooks, `standardwebhooks`) and POSTs webhook messages. The connection goes
 * only to addresses the guard checked at connect time (see guardedLookup), unless private
 * addresses are allowed; redirects are not followed (a 3xx is a failure); the whole exchange has
 * a timeout; the answer's body is read up to a short excerpt, and only for failures.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly options: { allowPrivate: boolean; timeoutMs: number; userAgent?: string },
  ) {
    this.agent = new Agent({
      connect: options.allowPrivate ? {} : { lookup: guardedLookup() },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  /** The signature header: the current secret's, then (during an overlap) the previous one's. */
  static signature(message: OutgoingMessage, at: Date): string {
    const secrets = [message.secret, message.previousSecret].filter((s): s is string => !!s);
    return secrets.map((s) => new Webhook(s).sign(message.id, at, message.body)).join(' ');
  }

  async send(message: OutgoingMessage, now = new Date()): Promise<AttemptResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    const failed = (error: string, responseCode: number | null = null): AttemptResult => ({
      responseCode,
      durationMs: took(),
      error: error.slice(0, 1000),
      succeeded: false,
      gone: responseCode === 410,
    });
    try {
      const url = new URL(message.url);
      const host = hostOf(url);
      // An IP literal is connected to without a lookup: it is checked here instead.
      if (!this.options.allowPrivate && net.isIP(host) && !isPublicAddress(host)) {
        return failed(`${host} is not a public address`);
      }
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        body: message.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': this.options.userAgent ?? 'crm-webhooks/1.0',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': WebhookSender.signature(message, now),
        },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const status = res.statusCode;
      if (status >= 200 && status < 300) {
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        return {
          responseCode: status,
          durationMs: took(),
          error: null,
          succeeded: true,
          gone: false,
        };
      }
      const excerpt = await readExcerpt(res.body);
      const location = status >= 300 && status < 400 ? res.headers.location : undefined;
      const what = location
        ? `HTTP ${status}: redirect to ${String(location).slice(0, 200)} not followed`
        : `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`;
      return failed(what, status);
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error };
      const name = e.name === 'TimeoutError' ? `timeout after ${this.options.timeoutMs} ms` : '';
      return failed(name || `${e.code ?? e.name}: ${e.message}`);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += chunk.toString('utf8');
      if (text.length >= EXCERPT) break;
    }
  } catch {
    // the excerpt is best effort
  } finally {
    body.destroy();
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, EXCERPT);
}
