import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  ErrorCode as NatsErrorCode,
  JSONCodec,
  Msg,
  NatsConnection,
  NatsError,
  Subscription,
} from 'nats';
import { JetStreamConnection } from '@crm/messaging';
import { acrossTenants, asTenant } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';
import type { SaleOutcome, SaleRequest } from './booking-batch-writer';
import { SalesLeasesRepository } from './sales-leases.repository';
import { failedReply, readReply, SaleReply, toWire, unanswered, WireReply } from './sale-wire';

type Write = (request: SaleRequest) => Promise<SaleOutcome>;

/** A sale request as it crosses NATS: its date as ISO text (the outcome: sale-wire.ts). */
type WireRequest = Omit<SaleRequest, 'now'> & { now: string };

/** A request to forward to its tenant's writer, and what came of it. */
interface Forward {
  owner: string;
  request: SaleRequest;
}
type Forwarded = SaleReply | { error: unknown };

const codec = JSONCodec<unknown>();
/** Requests forwarded in one message at most (a writer's batch takes as many). */
const MAX_FORWARD_BATCH = 100;
const subjectOf = (owner: string) => `bookings-invitations.sales.${owner}`;

/** How long a replica not yet reachable over NATS writes a tenant's sales itself before asking again. */
const UNLEASED_MS = 1000;

/**
 * One writer per tenant across replicas. The replica that holds a tenant's lease (SalesLease,
 * taken by the first replica that sells for the tenant, renewed while it sells) writes the
 * tenant's public bookings and holds in its batches; the others forward theirs to it over NATS
 * (core request-reply, to a subject of that process; what arrives in one turn of the event loop
 * goes in one message) and answer what it answered. So the
 * tenant's counters and invoice counter are taken by one writer's batches instead of two
 * writers' taking turns: with batches half as large and the locks passed between processes, two
 * replicas sold slower than one.
 *
 * It only routes. A sale stays exact without it (the counters' row locks decide), so whenever
 * the holder cannot be asked this replica writes itself: NATS down, or the holder gone (NATS has
 * no subscriber for it: its lease is taken over at once). A holder that does not answer in time
 * gets a 503 (the booking may have been written; a retry with its Idempotency-Key learns it).
 * A stopping replica answers what it was forwarded and hands its leases back.
 */
@Injectable()
export class SalesRouting implements OnModuleDestroy {
  /** This process's name on NATS and in SalesLease (unique per start: pods all run as pid 1). */
  readonly ownerId = `${hostname()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 60)}-${randomUUID()}`;
  /** Requests written here for this replica's buyers, forwarded, and written for others'. */
  readonly stats = { local: 0, forwarded: 0, served: 0, takeovers: 0 };

  private readonly logger = new Logger(SalesRouting.name);
  private readonly leaseMs: number;
  private readonly forwardTimeoutMs: number;
  /** The lease holder per tenant as last known, and until when (local ms) to trust it. */
  private readonly known = new Map<string, { owner: string | null; until: number }>();
  private readonly asking = new Map<string, Promise<string | null>>();
  private readonly serving = new Set<Promise<void>>();
  /** Requests to forward, per holder, until the end of this turn of the event loop. */
  private readonly outbound = new Map<
    string,
    { forward: Forward; done: (f: Forwarded) => void }[]
  >();
  private subscription: { nc: NatsConnection; sub: Subscription } | null = null;
  private write: Write | null = null;
  private stopping = false;
  private silentOwner: string | null = null;

  constructor(
    private readonly leases: SalesLeasesRepository,
    private readonly nats: JetStreamConnection,
    @Inject(SERVICE_CONFIG) config: BookingsInvitationsConfig,
  ) {
    this.leaseMs = config.SALES_LEASE_MS;
    this.forwardTimeoutMs = config.SALES_FORWARD_TIMEOUT_MS;
  }

  /** Makes this replica a writer: `write` writes a request here, for its buyers and others'. */
  serve(write: Write): void {
    this.write = write;
    this.nats.onReady(() => this.subscribe());
    this.subscribe();
  }

  /** Writes the request where its tenant's sales are written: here, or at the lease's holder. */
  async submit(request: SaleRequest, attempt = 0): Promise<SaleOutcome> {
    const owner = await this.ownerOf(request.tenantId);
    const nc = this.nats.connection;
    if (owner === null || owner === this.ownerId || !nc) return this.writeHere(request);
    this.stats.forwarded++;
    const forwarded = await this.forwardSoon({ owner, request });
    if ('outcome' in forwarded) return forwarded.outcome;
    const err = forwarded.error;
    if (!(err instanceof NatsError)) throw err;
    if (err.code === NatsErrorCode.NoResponders && attempt === 0) {
      // The holder's connection is gone (stopped, killed): take its lease over.
      if (this.known.get(request.tenantId)?.owner === owner) {
        this.stats.takeovers++;
        this.known.delete(request.tenantId);
        await this.claim(request.tenantId, owner);
      }
      return this.submit(request, attempt + 1);
    }
    if (err.code === NatsErrorCode.NoResponders || err.code === NatsErrorCode.Disconnect)
      return this.writeHere(request);
    // once per silent holder, not once per buyer waiting on it
    if (this.silentOwner !== owner)
      this.logger.warn(`sales writer ${owner} did not answer: ${err.message}`);
    this.silentOwner = owner;
    throw unanswered();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.subscription?.sub.unsubscribe();
    this.subscription = null;
    // Answer what was forwarded here before the connection closes, then let the others take over.
    await Promise.allSettled([...this.serving]);
    // across tenants: this replica's leases of every tenant it sold for
    await acrossTenants("hand-back of this replica's sales leases", async () =>
      this.leases.releaseAll(this.ownerId),
    ).catch((err: Error) => this.logger.warn(`sales leases not released: ${err.message}`));
  }

  private writeHere(request: SaleRequest): Promise<SaleOutcome> {
    this.stats.local++;
    return this.write!(request);
  }

  /** The tenant's lease holder: as known, or claimed (renewed at half its time while selling). */
  private ownerOf(tenantId: string): string | null | Promise<string | null> {
    const known = this.known.get(tenantId);
    if (known && Date.now() < known.until) return known.owner;
    let asking = this.asking.get(tenantId);
    if (!asking) {
      asking = this.claim(tenantId).finally(() => this.asking.delete(tenantId));
      this.asking.set(tenantId, asking);
    }
    return asking;
  }

  /**
   * Claims the tenant's lease (or, `from` given, takes it over from that holder) while this
   * replica can be reached over NATS; otherwise only looks who holds it. The holder, or null:
   * nobody (this replica writes itself for a moment, then asks again).
   */
  private async claim(tenantId: string, from?: string): Promise<string | null> {
    const reachable = this.subscription !== null && !this.stopping;
    let holder = reachable
      ? await this.leases.claim(tenantId, this.ownerId, this.leaseMs, from)
      : await this.leases.holder(tenantId);
    // a claim racing another replica's first insert sees no row: once more sees it
    if (reachable && !holder)
      holder = await this.leases.claim(tenantId, this.ownerId, this.leaseMs);
    const now = Date.now();
    if (!holder) {
      this.known.set(tenantId, { owner: null, until: now + UNLEASED_MS });
      return null;
    }
    const mine = holder.owner === this.ownerId;
    this.known.set(tenantId, {
      owner: holder.owner,
      until: now + (mine ? holder.remainingMs / 2 : Math.max(holder.remainingMs, 100)),
    });
    return holder.owner;
  }

  /**
   * Forwards the request with the others for the same holder that arrive in this turn of the
   * event loop, in one message: without waiting for an earlier message's answer (waiting made the
   * forwarded buyers miss every other batch of the writer: measured, they sold at 60 % of the rate
   * of the holder's own).
   */
  private forwardSoon(forward: Forward): Promise<Forwarded> {
    return new Promise((done) => {
      const waiting = this.outbound.get(forward.owner);
      if (waiting) {
        waiting.push({ forward, done });
        if (waiting.length >= MAX_FORWARD_BATCH) this.flush(forward.owner);
        return;
      }
      this.outbound.set(forward.owner, [{ forward, done }]);
      setImmediate(() => this.flush(forward.owner));
    });
  }

  private flush(owner: string): void {
    const waiting = this.outbound.get(owner);
    if (!waiting) return;
    this.outbound.delete(owner);
    void this.forwardBatch(waiting.map((w) => w.forward)).then((results) =>
      results.forEach((r, i) => waiting[i].done(r)),
    );
  }

  /** One message with the requests for one writer; its answer, one per request. */
  private async forwardBatch(batch: Forward[]): Promise<Forwarded[]> {
    const nc = this.nats.connection;
    try {
      if (!nc) throw new NatsError('NATS is not connected', NatsErrorCode.Disconnect);
      const wire: WireRequest[] = batch.map(({ request }) => ({
        ...request,
        now: request.now.toISOString(),
      }));
      const msg = await nc.request(subjectOf(batch[0].owner), codec.encode(wire), {
        timeout: this.forwardTimeoutMs,
      });
      return (codec.decode(msg.data) as WireReply[]).map(readReply);
    } catch (error) {
      return batch.map(() => ({ error }));
    }
  }

  /** Listens for requests forwarded to this replica, once per NATS connection. */
  private subscribe(): void {
    const nc = this.nats.connection;
    if (!this.write || !nc || this.stopping || this.subscription?.nc === nc) return;
    const sub = nc.subscribe(subjectOf(this.ownerId), {
      callback: (err, msg) => {
        if (err) return;
        const done = this.serveOne(msg).finally(() => this.serving.delete(done));
        this.serving.add(done);
      },
    });
    this.subscription = { nc, sub };
  }

  private async serveOne(msg: Msg): Promise<void> {
    let replies: WireReply[];
    try {
      const requests = (codec.decode(msg.data) as WireRequest[]).map(
        (wire) => ({ ...wire, now: new Date(wire.now) }) as SaleRequest,
      );
      this.stats.served += requests.length;
      // selling for the others keeps the lease: renewed at half its time like a local sale (a
      // forwarded message names no tenant in its headers: as the tenant of its requests)
      const { tenantId } = requests[0];
      await asTenant(tenantId, async () => this.ownerOf(tenantId));
      replies = await Promise.all(
        requests.map((r) =>
          this.write!(r).then(
            (outcome) => ({ outcome: toWire(outcome) }),
            (err) => failedReply(err, this.logger),
          ),
        ),
      );
    } catch (err) {
      replies = [failedReply(err, this.logger)];
    }
    msg.respond(codec.encode(replies));
  }
}
