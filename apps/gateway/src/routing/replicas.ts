import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { Dispatcher, Pool } from 'undici';

/** All addresses of a host name (dns.lookup with all: true by default; tests inject their own). */
export type UpstreamLookup = (hostname: string) => Promise<{ address: string }[]>;
export const defaultLookup: UpstreamLookup = (hostname) => dnsLookup(hostname, { all: true });
/** Nest token of the UpstreamLookup the gateway uses (createGatewayApp's `lookup`). */
export const UPSTREAM_LOOKUP = Symbol('UPSTREAM_LOOKUP');

/** A service that does not accept the connection within this time counts as down (503). */
export const CONNECT_TIMEOUT_MS = 5000;

export interface ReplicaOptions {
  lookup?: UpstreamLookup;
  /** How often a name is resolved again (replicas come and go). */
  resolveEveryMs?: number;
  /** How often each address is asked /health/ready while a name has more than one. */
  probeEveryMs?: number;
  /** Options of each address's connection pool. */
  pool?: Pool.Options;
}

/** Methods a second attempt cannot change the outcome of (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Nothing was sent: the connection was never made. Safe to try again for every method. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
/** The peer closed or reset the connection before any byte of an answer: the request may have been read. */
const CLOSED_BEFORE_ANSWER = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export type RetryRule = 'not-connected' | 'closed';

/** How a failure before any answer byte may be retried; null: not at all. */
export function failureKind(err: Error): RetryRule | null {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === undefined) return null;
  if (NOT_CONNECTED.has(code)) return 'not-connected';
  if (CLOSED_BEFORE_ANSWER.has(code)) return 'closed';
  return null;
}

/**
 * Whether a call that failed before its answer began may be sent again: when the connection was
 * refused (nothing sent) for any method, when it was closed under it only for idempotent ones
 * (a POST may have been read: a second one could double a booking); either way only with a body
 * that can be sent again (bytes, not a stream already consumed).
 */
export function mayRetry(
  kind: RetryRule | null,
  idempotent: boolean,
  body: Dispatcher.DispatchOptions['body'],
): boolean {
  if (kind === null) return false;
  if (body !== null && body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body))
    return false;
  return kind === 'not-connected' || idempotent;
}

/** One address of a service: its own connections, and whether it takes calls. */
export class Replica {
  ready = true;
  private probing = false;

  constructor(
    readonly address: string,
    readonly pool: Dispatcher,
  ) {}

  /**
   * Asks /health/ready; a refused connection or a 5xx takes the address out of rotation. null
   * while a probe is under way already (its answer is the one to apply, not this call's).
   */
  async probe(host: string, timeoutMs: number): Promise<boolean | null> {
    if (this.probing) return null;
    this.probing = true;
    try {
      const res = await this.pool.request({
        path: '/health/ready',
        method: 'GET',
        headers: { host },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      await res.body.dump();
      return res.statusCode < 500;
    } catch {
      return false;
    } finally {
      this.probing = false;
    }
  }
}

/**
 * The addresses a service's host name resolves to (two replicas under `docker compose --scale`,
 * one ClusterIP on Kubernetes, one IP literal under `npm start`). Calls are spread round-robin
 * over the ready ones; when none is ready they go to all, so a service that is down answers the
 * same 503 as before.
 */
export class ReplicaSet {
  private replicas: Replica[];
  /** The replicas taking calls (all of them when none is ready). */
  private rotation: Replica[];
  private next = 0;
  private readonly host: string;
  private readonly hostname: string;
  private readonly port: string;
  private readonly protocol: string;
  private resolving: Promise<void> | null = null;
  private resolveTimer: NodeJS.Timeout | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** An IP literal is its only address: never resolved, never probed. */
  private readonly literal: boolean;

  constructor(
    origin: string,
    private readonly options: Required<Omit<ReplicaOptions, 'pool'>> & { pool: Pool.Options },
  ) {
    const url = new URL(origin);
    this.host = url.host;
    this.hostname = url.hostname.replace(/^\[|\]$/g, '');
    this.protocol = url.protocol;
    this.port = url.port || (url.protocol === 'https:' ? '443' : '80');
    // Until the first lookup answers: the name itself, as a plain pool would use it.
    this.replicas = [this.replicaOf(this.hostname)];
    this.rotation = this.replicas;
    this.literal = isIP(this.hostname) !== 0;
    if (!this.literal) {
      void this.resolve();
      this.resolveTimer = setInterval(() => void this.resolve(), options.resolveEveryMs);
      this.resolveTimer.unref();
    }
  }

  get addresses(): string[] {
    return this.replicas.map((r) => r.address);
  }

  get readyAddresses(): string[] {
    return this.replicas.filter((r) => r.ready).map((r) => r.address);
  }

  /** The next replica to call, other than `not` when another is ready. */
  pick(not?: Replica): Replica {
    const rotation = this.rotation;
    let replica = rotation[this.next++ % rotation.length]!;
    if (replica === not && rotation.length > 1) replica = rotation[this.next++ % rotation.length]!;
    if (this.next > 1e9) this.next = 0;
    return replica;
  }

  /** Sends a call, retried once when it failed before any answer and may be (mayRetry). */
  dispatch(
    opts: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
    idempotent: boolean,
  ): boolean {
    const replica = this.pick();
    return replica.pool.dispatch(opts, new ReplicaCall(this, replica, opts, handler, idempotent));
  }

  /** A call to `replica` failed before its answer: adjusts the rotation, says whether to retry. */
  failed(replica: Replica, kind: RetryRule | null): void {
    if (kind === 'not-connected' && this.replicas.length > 1) this.setReady(replica, false);
    else if (kind === 'closed' && this.replicas.length > 1) void this.probe(replica);
    if (kind !== null) void this.resolve();
  }

  /** The second attempt: another ready replica, or the same once the name was resolved again. */
  retry(failed: Replica, send: (replica: Replica) => void): void {
    const other = this.pick(failed);
    if (other !== failed || this.resolving === null) send(other);
    else void this.resolving.then(() => send(this.pick(failed)));
  }

  /** An answer said Connection: close (a replica draining): ask its readiness now. */
  closing(replica: Replica): void {
    if (this.replicas.length > 1) void this.probe(replica);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.resolveTimer) clearInterval(this.resolveTimer);
    if (this.probeTimer) clearInterval(this.probeTimer);
    await Promise.all(this.replicas.map((r) => r.pool.destroy()));
  }

  /** Resolves the name again (one lookup at a time); a failed lookup keeps what was known. */
  resolve(): Promise<void> {
    if (this.literal || this.closed) return Promise.resolve();
    if (this.resolving) return this.resolving;
    const resolving = this.options
      .lookup(this.hostname)
      .then((found) => this.update([...new Set(found.map((f) => f.address))]))
      .catch(() => undefined)
      .finally(() => (this.resolving = null));
    this.resolving = resolving;
    return resolving;
  }

  private update(addresses: string[]): void {
    if (this.closed || addresses.length === 0) return;
    const known = new Map(this.replicas.map((r) => [r.address, r]));
    const first = this.replicas.length === 1 && this.replicas[0]!.address === this.hostname;
    const replicas = addresses.map((a) => {
      const existing = known.get(a);
      if (existing) return existing;
      const replica = this.replicaOf(a);
      // A replica appearing later may not listen yet: it joins once its readiness says so.
      if (!first && addresses.length > 1) {
        replica.ready = false;
        void this.probe(replica);
      }
      return replica;
    });
    const kept = new Set(replicas);
    // Connections to addresses gone are closed once their calls are answered.
    for (const r of this.replicas) if (!kept.has(r)) void r.pool.close();
    this.replicas = replicas;
    if (replicas.length === 1) replicas[0]!.ready = true;
    this.rerotate();
    this.planProbes();
  }

  /** Probes run only while there is a choice; a single address takes every call unasked. */
  private planProbes(): void {
    if (this.replicas.length > 1 && !this.probeTimer) {
      this.probeTimer = setInterval(() => {
        for (const r of this.replicas) void this.probe(r);
      }, this.options.probeEveryMs);
      this.probeTimer.unref();
    } else if (this.replicas.length <= 1 && this.probeTimer) {
      clearInterval(this.probeTimer);
      this.probeTimer = null;
    }
  }

  private async probe(replica: Replica): Promise<void> {
    const ready = await replica.probe(this.host, this.options.probeEveryMs);
    if (ready === null) return;
    if (!this.closed && this.replicas.includes(replica) && this.replicas.length > 1)
      this.setReady(replica, ready);
  }

  private setReady(replica: Replica, ready: boolean): void {
    if (replica.ready === ready) return;
    replica.ready = ready;
    this.rerotate();
  }

  private rerotate(): void {
    const ready = this.replicas.filter((r) => r.ready);
    this.rotation = ready.length ? ready : this.replicas;
  }

  private replicaOf(address: string): Replica {
    const host = isIP(address) === 6 ? `[${address}]` : address;
    const origin = `${this.protocol}//${host}:${this.port}`;
    // TLS still names the host, not the address it was reached at.
    const tls = this.protocol === 'https:' && !this.literal;
    const connect = tls
      ? { ...(this.options.pool.connect as object), servername: this.hostname }
      : undefined;
    return new Replica(
      address,
      new Pool(origin, connect ? { ...this.options.pool, connect } : this.options.pool),
    );
  }
}

/**
 * One call through a ReplicaSet: hands everything to the caller's handler, except an error before
 * any answer that may be retried (mayRetry), which sends the call once more instead.
 */
class ReplicaCall implements Dispatcher.DispatchHandler {
  private answered = false;
  private retried = false;

  constructor(
    private readonly set: ReplicaSet,
    private replica: Replica,
    private readonly opts: Dispatcher.DispatchOptions,
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly idempotent: boolean,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    socket: Duplex,
  ): void {
    this.answered = true;
    this.handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    this.answered = true;
    if (headers.connection === 'close') this.set.closing(this.replica);
    this.handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    if (this.answered) return this.handler.onResponseError?.(controller, err);
    const kind = failureKind(err);
    this.set.failed(this.replica, kind);
    if (this.retried || controller?.aborted || !mayRetry(kind, this.idempotent, this.opts.body))
      return this.handler.onResponseError?.(controller, err);
    this.retried = true;
    this.set.retry(this.replica, (replica) => {
      this.replica = replica;
      replica.pool.dispatch(this.opts, this);
    });
  }
}

/**
 * undici's Agent with replica awareness: one ReplicaSet per origin (scheme, host name, port),
 * created on its first call. The caller's handler is undici's new handler API (ServiceCall).
 */
export class ReplicaAgent {
  private readonly sets = new Map<string, ReplicaSet>();
  private readonly options: Required<Omit<ReplicaOptions, 'pool'>> & { pool: Pool.Options };

  constructor(options: ReplicaOptions = {}) {
    this.options = {
      lookup: options.lookup ?? defaultLookup,
      resolveEveryMs: options.resolveEveryMs ?? 2000,
      probeEveryMs: options.probeEveryMs ?? 1000,
      pool: options.pool ?? {},
    };
  }

  /** The replicas of an origin (`http://host:port`, as URL.origin spells it). */
  replicasOf(origin: string): ReplicaSet {
    let set = this.sets.get(origin);
    if (!set) {
      set = new ReplicaSet(origin, this.options);
      this.sets.set(origin, set);
    }
    return set;
  }

  /** `idempotent`: may be sent twice when the peer closed the connection before answering. */
  dispatch(
    opts: Dispatcher.DispatchOptions & { origin: string },
    handler: Dispatcher.DispatchHandler,
    idempotent = IDEMPOTENT.has(opts.method),
  ): boolean {
    return this.replicasOf(opts.origin).dispatch(opts, handler, idempotent);
  }

  async destroy(): Promise<void> {
    await Promise.all([...this.sets.values()].map((s) => s.close()));
    this.sets.clear();
  }
}
