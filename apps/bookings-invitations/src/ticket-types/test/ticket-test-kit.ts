import { connect, headers as natsHeaders, JSONCodec, NatsConnection, Subscription } from 'nats';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { freePort, natsServer, NatsProcess, runSql, ServiceTestKit } from '@crm/testing';
import { RunningService, startBookingsInvitations } from '../../test/service-harness';

// The ticket types' integration tests: the real bookings-invitations on its own nats-server
// (so no other service on the shared NATS answers its requests or feeds its stream), a stand-in
// for the events service's `events.events.exist` responder, and events published to JetStream
// the way the events service's outbox relay does.

/** Answers events.events.exist as the events service would, from the events registered. */
export class EventsStandIn {
  readonly asked: { tenantId: string; eventIds: string[] }[] = [];
  private readonly known = new Map<string, Set<string>>();
  private sub: Subscription | null = null;

  constructor(private readonly nc: NatsConnection) {}

  event(tenantId: string): string {
    const id = randomUUID();
    const set = this.known.get(tenantId) ?? new Set<string>();
    set.add(id);
    this.known.set(tenantId, set);
    return id;
  }

  async start(): Promise<void> {
    if (this.sub) return;
    const codec = JSONCodec<{ id: string; data: { tenantId: string; eventIds: string[] } }>();
    this.sub = this.nc.subscribe(Subjects.events.eventsExist, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data);
        this.asked.push(req.data);
        const mine = this.known.get(req.data.tenantId) ?? new Set();
        const response = { missingEventIds: req.data.eventIds.filter((id) => !mine.has(id)) };
        msg.respond(JSONCodec().encode({ id: req.id, response, isDisposed: true }));
      },
    });
    await this.nc.flush();
  }

  async stop(): Promise<void> {
    this.sub?.unsubscribe();
    this.sub = null;
    await this.nc.flush();
  }
}

export class TicketTestKit extends ServiceTestKit {
  private constructor(
    svc: RunningService,
    private readonly nats: NatsProcess,
    private readonly store: string,
    readonly nc: NatsConnection,
    readonly events: EventsStandIn,
  ) {
    super(svc);
  }

  static async start(dbName: string, env: Record<string, string> = {}): Promise<TicketTestKit> {
    const store = await mkdtemp(path.join(tmpdir(), 'bk-nats-'));
    const nats = await natsServer(await freePort(), store);
    const svc = await startBookingsInvitations(dbName, { NATS_URL: nats.url, ...env });
    const nc = await connect({ servers: nats.url, name: 'events-stand-in' });
    const events = new EventsStandIn(nc);
    await events.start();
    return new TicketTestKit(svc, nats, store, nc, events);
  }

  override async close(): Promise<void> {
    await this.nc.close();
    await super.close();
    await this.nats.stop();
    await rm(this.store, { recursive: true, force: true });
  }

  sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.svc.databaseUrl, text, params);
  }

  /** Publishes an outbox event to JetStream as the events service's relay does. */
  async publish(
    subject: string,
    payload: { tenantId: string } & Record<string, unknown>,
    id = randomUUID(),
  ): Promise<string> {
    const h = natsHeaders();
    h.set('Crm-Tenant-Id', payload.tenantId);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.nc
          .jetstream()
          .publish(subject, JSON.stringify(payload), { msgID: id, headers: h });
        return id;
      } catch (err) {
        if (attempt > 50) throw err; // the service creates the stream when it connects
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** Waits until the service has applied the event `id` (ProcessedEvent). */
  async applied(id: string, ms = 45_000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      const rows = await this.sql(`SELECT 1 FROM "ProcessedEvent" WHERE id = $1::uuid`, [id]);
      if (rows.length) return;
      if (Date.now() > end) throw new Error(`event ${id} not applied within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Publishes an events.events.changed snapshot and waits until it is applied. */
  async snapshot(tenantId: string, eventId: string, over: Record<string, unknown> = {}) {
    const id = await this.publish(Subjects.events.eventChanged, {
      tenantId,
      eventId,
      sequence: 1,
      title: 'Summit',
      startsAt: '2030-06-01T08:00:00.000Z',
      endsAt: '2030-06-01T17:00:00.000Z',
      timeZone: 'Europe/Berlin',
      capacity: 100,
      published: true,
      status: 'planned',
      taxRateId: 'de-standard',
      cancellationTiers: [],
      bookingFormFieldSetId: null,
      websiteIds: [],
      ...over,
    });
    await this.applied(id);
    return id;
  }

  copy(tenantId: string, eventId: string) {
    return this.sql<Record<string, unknown>>(
      `SELECT * FROM "EventCopy" WHERE "tenantId" = $1 AND "eventId" = $2::uuid`,
      [tenantId, eventId],
    ).then((r) => r[0] ?? null);
  }

  async count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
    const [row] = await this.sql<{ n: string }>(
      `SELECT count(*) AS n FROM "${table}" WHERE ${where}`,
      params,
    );
    return Number(row.n);
  }
}
