import { connect, headers as natsHeaders, JSONCodec, NatsConnection, Subscription } from 'nats';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import {
  freePort,
  natsServer,
  NatsProcess,
  runSql,
  ServiceTestClient,
  ServiceTestKit,
  tenantHeaders,
  TestAnswer,
} from '@crm/testing';
import { RunningService, startBookingsInvitations, startReplica } from '../../test/service-harness';
import { EventsStandIn } from '../../ticket-types/test/ticket-test-kit';

// The bookings' integration tests: the real service on its own nats-server, events known through
// events.events.changed snapshots (as the events service's relay publishes them), a stand-in for
// crm-people's peopleExist, and optionally a second replica on the same database.

/** Answers crm-people.people.exist from the people registered; records the asks. */
export class PeopleStandIn {
  readonly asked: string[][] = [];
  private readonly known = new Set<string>();
  private sub: Subscription | null = null;

  constructor(private readonly nc: NatsConnection) {}

  person(): string {
    return this.add(randomUUID());
  }

  /** A person known from now on (also to another stand-in). */
  add(id: string): string {
    this.known.add(id);
    return id;
  }

  /** Not a person any more (crm-people deleted or merged it). */
  forget(id: string): void {
    this.known.delete(id);
  }

  async start(): Promise<void> {
    if (this.sub) return;
    const codec = JSONCodec<{ id: string; data: { tenantId: string; personIds: string[] } }>();
    this.sub = this.nc.subscribe(Subjects.crmPeople.peopleExist, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data);
        this.asked.push(req.data.personIds);
        const response = {
          missingPersonIds: req.data.personIds.filter((id) => !this.known.has(id)),
        };
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

export interface TicketWish {
  ticketTypeId: string;
  /** participants of this type (default 1) */
  n?: number;
}

export class BookingTestKit extends ServiceTestKit {
  /** The second replica's client (when started with replica: true). */
  replicaApi: ServiceTestClient | null = null;

  private constructor(
    svc: RunningService,
    private readonly nats: NatsProcess,
    private readonly store: string,
    readonly nc: NatsConnection,
    readonly events: EventsStandIn,
    readonly people: PeopleStandIn,
    private replica: RunningService | null,
  ) {
    super(svc);
    if (replica) this.replicaApi = new ServiceTestClient(replica.url);
  }

  static async start(
    dbName: string,
    opts: { replica?: boolean; env?: Record<string, string> } = {},
  ) {
    const store = await mkdtemp(path.join(tmpdir(), 'bk-nats-'));
    const nats = await natsServer(await freePort(), store);
    const env = { NATS_URL: nats.url, ...opts.env };
    const svc = await startBookingsInvitations(dbName, env);
    const replica = opts.replica ? await startReplica(svc.databaseUrl, env) : null;
    const nc = await connect({ servers: nats.url, name: 'bookings-stand-ins' });
    const events = new EventsStandIn(nc);
    await events.start();
    const people = new PeopleStandIn(nc);
    await people.start();
    return new BookingTestKit(svc, nats, store, nc, events, people, replica);
  }

  /** The kit's own nats-server, for a replica started as a child process. */
  get natsUrl(): string {
    return this.nats.url;
  }

  /** The second replica (when started with replica: true). */
  get replicaApp() {
    return this.replica?.app ?? null;
  }

  override async close(): Promise<void> {
    await this.nc.close();
    await this.replica?.app.close();
    await super.close();
    await this.nats.stop();
    await rm(this.store, { recursive: true, force: true });
  }

  sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.svc.databaseUrl, text, params);
  }

  async count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
    const [row] = await this.sql<{ n: string }>(
      `SELECT count(*) AS n FROM "${table}" WHERE ${where}`,
      params,
    );
    return Number(row.n);
  }

  /** Publishes an outbox event to JetStream as another service's relay does; waits until applied. */
  async publishApplied(subject: string, payload: { tenantId: string } & Record<string, unknown>) {
    const id = randomUUID();
    const h = natsHeaders();
    h.set('Crm-Tenant-Id', payload.tenantId);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.nc
          .jetstream()
          .publish(subject, JSON.stringify(payload), { msgID: id, headers: h });
        break;
      } catch (err) {
        if (attempt > 50) throw err; // the service creates the stream when it connects
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // a deadline, not a wait: on a busy CI machine the consumer's turn may take a while
    const end = Date.now() + 60_000;
    while (!(await this.sql(`SELECT 1 FROM "ProcessedEvent" WHERE id = $1::uuid`, [id])).length) {
      if (Date.now() > end) throw new Error(`event ${id} not applied`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * An event of `tenant` known to the service (published, starting 2030-06-01 in Berlin, no
   * capacity unless given); `formFields` become its booking form.
   */
  async event(
    tenant = this.A,
    over: Record<string, unknown> = {},
    formFields?: unknown[],
  ): Promise<string> {
    const eventId = randomUUID();
    await this.publishApplied(Subjects.events.eventChanged, {
      tenantId: tenant,
      eventId,
      sequence: 1,
      title: 'Summit',
      startsAt: '2030-06-01T08:00:00.000Z',
      endsAt: '2030-06-01T17:00:00.000Z',
      timeZone: 'Europe/Berlin',
      capacity: null,
      published: true,
      status: 'scheduled',
      taxRateId: 'de-standard',
      cancellationTiers: null,
      bookingFormFieldSetId: null,
      websiteIds: [],
      ...over,
    });
    if (formFields) {
      await this.sql(
        `UPDATE "EventCopy" SET "bookingFormFields" = $3::jsonb WHERE "tenantId" = $1 AND "eventId" = $2::uuid`,
        [tenant, eventId, JSON.stringify(formFields)],
      );
    }
    return eventId;
  }

  /** A ticket type through K1 (price 119 EUR gross, no quota unless given). */
  async ticketType(
    eventId: string,
    over: Record<string, unknown> = {},
    tenant = this.A,
  ): Promise<string> {
    const res = await this.call(
      'POST',
      '/tickets',
      { eventId, name: 'Standard', price: '119', currency: 'EUR', ...over },
      tenant,
    );
    if (res.status !== 201) throw new Error(`ticket type: ${res.status} ${res.text}`);
    return res.body.data.id;
  }

  body(eventId: string, wishes: TicketWish[], over: Record<string, unknown> = {}) {
    let k = 0;
    return {
      eventId,
      booker: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.org' },
      tickets: wishes.flatMap((w) =>
        Array.from({ length: w.n ?? 1 }, () => ({
          ticketTypeId: w.ticketTypeId,
          participant: { firstname: `P${++k}`, lastname: 'Guest', email: `p${k}@example.org` },
        })),
      ),
      ...over,
    };
  }

  /** BK1 as a visitor of `tenant` (no key: the service never sees one). */
  book(
    eventId: string,
    wishes: TicketWish[],
    over: Record<string, unknown> = {},
    tenant = this.A,
    extra: Record<string, string> = {},
    api: ServiceTestClient = this.api,
  ): Promise<TestAnswer> {
    return api.rest(
      'POST',
      '/bookings/public',
      this.body(eventId, wishes, over),
      tenantHeaders(tenant, extra),
    );
  }

  /** A booking made through BK1 (201 expected): its data. */
  async booked(
    eventId: string,
    wishes: TicketWish[],
    over: Record<string, unknown> = {},
    tenant = this.A,
  ) {
    const res = await this.book(eventId, wishes, over, tenant);
    if (res.status !== 201) throw new Error(`booking: ${res.status} ${res.text}`);
    return res.body.data;
  }

  counters(eventId: string) {
    return this.sql<{ id: string; sold: number }>(
      `SELECT id::text, sold FROM "TicketType" WHERE "eventId" = $1::uuid ORDER BY id`,
      [eventId],
    );
  }
}
