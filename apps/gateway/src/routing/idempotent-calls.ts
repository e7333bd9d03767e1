import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { AppException, ErrorCode } from '@crm/errors';
import { HEADERS_NOT_REPLAYED } from '@crm/service-kit';
import type { IdempotencyRecord, IdempotencyStore } from './idempotency-store';
import type { ServiceAnswer } from './service-call';
import type { RestRoute } from './services';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** 1 to 200 visible ASCII characters (spaces inside allowed), as BK1 takes them. */
const KEY_FORMAT = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;
/** Request bodies are hashed whole, so they are read first: up to this size. */
export const IDEMPOTENT_BODY_BYTES = 1024 * 1024;
/** Answers up to this size are kept for a retry (NATS carries at most 1 MiB per message). */
export const KEPT_ANSWER_BYTES = 512 * 1024;

/**
 * The Idempotency-Key of a call the gateway makes idempotent, or null: keyed (not public) POSTs
 * that carry the header. Public operations keep their own (BK1 decides it with the booking).
 */
export function idempotencyKeyOf(req: IncomingMessage, route: RestRoute): string | null {
  if (req.method !== 'POST' || route.isPublic) return null;
  const value = req.headers['idempotency-key'];
  return typeof value === 'string' ? value : null;
}

/**
 * POST with `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): the first call with a
 * key (per tenant) goes to the service and its answer is kept for 24 h; a retry with the same
 * method, path and body gets that answer again (`Idempotent-Replayed: true`) without reaching
 * the service, while the first is still running a 409 with Retry-After, and with anything else a
 * 409 naming the header. An answer of 5xx or a call that failed is not kept: the retry goes
 * through. A call whose gateway died before answering is taken over once its lease (the
 * service's answer time and a margin) has passed.
 */
export class IdempotentCalls {
  private readonly logger = new Logger(IdempotentCalls.name);

  constructor(
    private readonly store: IdempotencyStore,
    /** How long a call may run before another gateway may take its key over. */
    private readonly leaseMs: number,
  ) {}

  async run(
    req: IncomingMessage,
    res: ServerResponse,
    tenantId: string,
    key: string,
    /** Forwards the call with its body and fingerprint (the service keeps the key as well). */
    send: (body: Buffer | null, fingerprint: string) => Promise<ServiceAnswer>,
  ): Promise<ServiceAnswer> {
    if (!KEY_FORMAT.test(key)) {
      throw AppException.validation([
        {
          field: IDEMPOTENCY_HEADER,
          rule: 'idempotencyKey',
          messageKey: 'gateway.idempotency.badKey',
        },
      ]);
    }
    const body = await wholeBody(req);
    const fingerprint = createHash('sha256')
      .update(`${req.method}\n${req.url}\n${req.headers['content-type'] ?? ''}\n`)
      .update(body ?? Buffer.alloc(0))
      .digest('hex');
    const slot = createHash('sha256').update(`${tenantId}\n${key}`).digest('hex');
    const pending = (): IdempotencyRecord => ({
      fingerprint,
      state: 'pending',
      leaseUntil: Date.now() + this.leaseMs,
    });

    const claim = await this.store.claim(slot, pending());
    let revision: number;
    if (claim.kind === 'claimed') revision = claim.revision;
    else {
      const found = claim.record;
      if (found.fingerprint !== fingerprint) throw conflict('reused', key);
      if (found.state === 'done') return replay(found, key);
      const taken =
        (found.leaseUntil ?? 0) <= Date.now()
          ? await this.store.replace(slot, pending(), claim.revision)
          : null;
      if (taken === null) {
        res.setHeader('Retry-After', '1');
        throw conflict('inFlight', key);
      }
      revision = taken;
    }

    let answer: ServiceAnswer;
    try {
      answer = await send(body, fingerprint);
    } catch (err) {
      await this.forget(slot, revision);
      throw err;
    }
    if (answer.statusCode >= 500) {
      await this.forget(slot, revision);
      return answer;
    }
    const kept = Buffer.isBuffer(answer.body) && answer.body.length <= KEPT_ANSWER_BYTES;
    const done: IdempotencyRecord = {
      fingerprint,
      state: 'done',
      status: answer.statusCode,
      headers: keptHeaders(answer.headers),
      ...(kept ? { body: (answer.body as Buffer).toString('base64') } : {}),
    };
    // Kept before the client sees the answer: a retry after it finds the answer, not the lease.
    await this.store.replace(slot, done, revision).catch((err: unknown) => {
      this.logger.warn(`answer for an Idempotency-Key not kept: ${(err as Error).message}`);
    });
    return answer;
  }

  /** The call failed: the key is free for a retry. */
  private async forget(slot: string, revision: number): Promise<void> {
    await this.store.release(slot, revision).catch((err: unknown) => {
      this.logger.warn(`Idempotency-Key not released: ${(err as Error).message}`);
    });
  }
}

/**
 * The body, read whole to be hashed (and sent on as it is). Larger than IDEMPOTENT_BODY_BYTES:
 * a 413, after reading what the client sends, so that it receives the answer.
 */
async function wholeBody(req: IncomingMessage): Promise<Buffer | null> {
  const tooLarge = () =>
    new AppException(ErrorCode.PAYLOAD_TOO_LARGE, 'gateway.idempotency.bodyTooLarge', {
      max: IDEMPOTENT_BODY_BYTES,
    });
  if (Number(req.headers['content-length'] ?? 0) > IDEMPOTENT_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= IDEMPOTENT_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > IDEMPOTENT_BODY_BYTES) throw tooLarge();
  return size ? Buffer.concat(chunks) : null;
}

function replay(found: IdempotencyRecord, key: string): ServiceAnswer {
  if (found.body === undefined) throw conflict('answerNotKept', key, { status: found.status });
  return {
    statusCode: found.status ?? 200,
    headers: { ...(found.headers ?? {}), 'idempotent-replayed': 'true' },
    body: Buffer.from(found.body, 'base64'),
  };
}

function keptHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HEADERS_NOT_REPLAYED.has(name)) out[name] = value;
  return out;
}

function conflict(
  reason: 'reused' | 'inFlight' | 'answerNotKept',
  key: string,
  args: Record<string, string | number | undefined> = {},
): AppException {
  const rule = `idempotency${reason[0].toUpperCase()}${reason.slice(1)}`;
  const shown = { key: key.slice(0, 200), ...args };
  return AppException.conflictOn(IDEMPOTENCY_HEADER, rule, `gateway.idempotency.${reason}`, shown);
}
