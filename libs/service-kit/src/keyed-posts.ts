import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppException, ErrorCode } from '@crm/errors';
import { IDEMPOTENCY_FINGERPRINT_HEADER, TENANT_ID_HEADER } from '@crm/request-context';

const FINGERPRINT = IDEMPOTENCY_FINGERPRINT_HEADER.toLowerCase();

/** The answer a keyed POST was given, kept with its key. */
export interface KeptAnswer {
  fingerprint: string;
  status: number;
  headers: Record<string, string | string[]>;
  /** null: too large to keep. */
  body: Buffer | null;
}

/**
 * Where a service carries out keyed POSTs exactly once (@crm/persistence IdempotentRequests,
 * provided under KEYED_POSTS by the service's database module): each runs in one transaction
 * with the record of its key and answer.
 */
export interface KeyedPostStore<Tx = unknown> {
  begin(
    tenantId: string,
    key: string,
    fingerprint: string,
  ): Promise<{ kind: 'run'; tx: Tx } | { kind: 'answered'; answer: KeptAnswer }>;
  /** Runs `fn` (the request's handling) inside the transaction. */
  inside(tx: Tx, fn: () => void): void;
  /** Writes the answer with the request's changes and commits; rejects when nothing was kept. */
  commit(tx: Tx, answer: Omit<KeptAnswer, 'fingerprint'>): Promise<void>;
  rollback(tx: Tx): Promise<void>;
  /** Deletes the answers past their time (24 h); how many. */
  purge(): Promise<number>;
}

export const KEYED_POSTS = Symbol('KEYED_POSTS');

/**
 * Headers of an answer not kept for a repeat (here and in the gateway's record): they belong to
 * the first call's connection, time and rate count.
 */
export const HEADERS_NOT_REPLAYED: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'date',
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
]);
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * POSTs that the gateway forwards with an Idempotency-Key (and its fingerprint) are carried out
 * once: before the handler, the request's transaction takes the key (or finds the answer a call
 * with it was given, and gives it again with `Idempotent-Replayed: true`); before the answer is
 * sent, it is written with the request's changes and committed. An answer of 5xx rolls
 * everything back, so the key is free for a repeat. A commit that fails turns the answer into a
 * 503: nothing was changed.
 */
export function carryOutKeyedPostsOnce(fastify: FastifyInstance, store: KeyedPostStore): void {
  /** The transaction of each keyed request being handled. */
  const running = new WeakMap<FastifyRequest, unknown>();

  fastify.addHook('preHandler', (req, reply, done) => {
    const key = single(req.headers['idempotency-key']);
    const fingerprint = single(req.headers[FINGERPRINT]);
    const tenantId = single(req.headers[TENANT_ID_HEADER])?.trim();
    if (req.method !== 'POST' || !key || !fingerprint || !tenantId) return done();
    store.begin(tenantId, key, fingerprint).then(
      (start) => {
        if (start.kind === 'answered') return replay(reply, start.answer, fingerprint, key, done);
        running.set(req, start.tx);
        store.inside(start.tx, done);
      },
      (err: Error) => done(err),
    );
  });

  fastify.addHook('onSend', (req, reply, payload, done) => {
    const tx = running.get(req);
    if (!tx) return done(null, payload);
    running.delete(req);
    if (reply.statusCode >= 500) {
      void store.rollback(tx).finally(() => done(null, payload));
      return;
    }
    const body =
      typeof payload === 'string'
        ? Buffer.from(payload)
        : Buffer.isBuffer(payload)
          ? payload
          : null;
    const answer = { status: reply.statusCode, headers: keptHeaders(reply), body };
    store.commit(tx, answer).then(
      () => done(null, payload),
      () =>
        done(
          new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.databaseUnavailable'),
        ),
    );
  });

  // A request that ended without an answer through onSend (the client left, an error before the
  // handler): its transaction is rolled back.
  fastify.addHook('onResponse', (req, _reply, done) => {
    const tx = running.get(req);
    running.delete(req);
    if (tx) void store.rollback(tx);
    done();
  });

  const timer = setInterval(() => void store.purge().catch(() => undefined), PURGE_EVERY_MS);
  timer.unref();
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}

function replay(
  reply: FastifyReply,
  answer: KeptAnswer,
  fingerprint: string,
  key: string,
  done: (err?: Error) => void,
): void {
  const shown = { key: key.slice(0, 200) };
  if (answer.fingerprint !== fingerprint) return done(conflict('idempotencyReused', shown));
  if (answer.body === null)
    return done(conflict('idempotencyAnswerNotKept', { ...shown, status: answer.status }));
  void reply
    .code(answer.status)
    .headers(answer.headers)
    .header('idempotent-replayed', 'true')
    .send(answer.body);
}

function conflict(rule: string, args: Record<string, string | number>): AppException {
  return AppException.conflictOn('Idempotency-Key', rule, `errors.conflict.${rule}`, args);
}

function keptHeaders(reply: FastifyReply): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || HEADERS_NOT_REPLAYED.has(name.toLowerCase())) continue;
    out[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

const single = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' && value ? value : undefined;
