import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, NatsConnection, Subscription } from 'nats';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Subjects,
  type TicketTypesSummaryReply,
  type TicketTypesSummaryRequest,
} from '@crm/messaging';
import { freePort, natsServer, NatsProcess, runSql, ServiceTestKit } from '@crm/testing';
import { RunningService, startEvents } from '../../test/service-harness';

// The events integration tests' kit: a running events service on a nats-server of its own, tenants
// A and B, fixtures written straight into the database (websites, templates, settings entries:
// other helpers' routes), events created through E3, and a stand-in for bookings-invitations'
// ticket types summary (the publication check, E11/E12).

/**
 * Answers bookings-invitations.ticket-types.summary as bookings-invitations would: every event has
 * one active ticket type unless a test set another answer (`set`) or silenced the stand-in
 * (`stop`: bookings-invitations does not answer).
 */
export class TicketTypesStandIn {
  readonly asked: TicketTypesSummaryRequest[] = [];
  private readonly answers = new Map<string, TicketTypesSummaryReply>();
  private sub: Subscription | null = null;

  constructor(private readonly nc: NatsConnection) {}

  set(eventId: string, reply: TicketTypesSummaryReply): void {
    this.answers.set(eventId.toLowerCase(), reply);
  }

  async start(): Promise<void> {
    if (this.sub) return;
    const codec = JSONCodec<{ id: string; data: TicketTypesSummaryRequest }>();
    this.sub = this.nc.subscribe(Subjects.bookingsInvitations.ticketTypesSummary, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data);
        this.asked.push(req.data);
        const response = this.answers.get(req.data.eventId.toLowerCase()) ?? {
          total: 1,
          active: 1,
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

export class EventTestKit extends ServiceTestKit {
  /**
   * Without NATS_URL in `env` the service gets a nats-server of its own: no other service on the
   * shared one (a real bookings-invitations) answers in the stand-in's place.
   */
  static async start(dbName: string, env: Record<string, string> = {}): Promise<EventTestKit> {
    let nats: { server: NatsProcess; store: string } | null = null;
    if (!env.NATS_URL) {
      const store = await mkdtemp(path.join(tmpdir(), 'ev-kit-nats-'));
      nats = { server: await natsServer(await freePort(), store), store };
    }
    const natsUrl = env.NATS_URL ?? nats!.server.url;
    const svc = await startEvents(dbName, { ...env, NATS_URL: natsUrl });
    const nc = await connect({ servers: natsUrl, name: 'bookings-invitations-stand-in' });
    const ticketTypes = new TicketTypesStandIn(nc);
    await ticketTypes.start();
    return new EventTestKit(svc, nc, ticketTypes, nats);
  }

  constructor(
    svc: RunningService,
    private readonly nc: NatsConnection,
    readonly ticketTypes: TicketTypesStandIn,
    private readonly nats: { server: NatsProcess; store: string } | null,
  ) {
    super(svc);
  }

  override async close(): Promise<void> {
    await this.nc.close();
    await super.close();
    if (this.nats) {
      await this.nats.server.stop();
      await rm(this.nats.store, { recursive: true, force: true });
    }
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

  /** Creates an event through E3 and answers it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
  async event(body: Record<string, unknown>, tenant = this.A): Promise<any> {
    const res = await this.call('POST', '/events', body, tenant);
    if (res.status !== 201) throw new Error(`create event: ${res.status} ${res.text}`);
    return res.body.data;
  }

  /** A website row of `tenant` (the websites routes are another helper's). */
  async website(tenant = this.A, published = true, name = 'Portal'): Promise<string> {
    // Hex only, so a search for a word never matches the random part.
    const key = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}.example`;
    const [row] = await this.sql<{ id: string }>(
      `INSERT INTO "Website" (id, "tenantId", name, url, "urlKey", published, "dateModified")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, now()) RETURNING id::text`,
      [tenant, name, `https://${key}/`, key, published],
    );
    return row.id;
  }

  /** A contact person template row of `tenant`. */
  async template(tenant = this.A, fields: Record<string, string> = {}): Promise<string> {
    const [row] = await this.sql<{ id: string }>(
      `INSERT INTO "ContactPersonTemplate" (id, "tenantId", name, salutation, firstname, lastname,
         position, email, phone, "dateModified")
       VALUES (gen_random_uuid(), $1, 'Default', $2, $3, $4, $5, $6, $7, now()) RETURNING id::text`,
      [
        tenant,
        fields.salutation ?? 'Ms',
        fields.firstname ?? 'Erika',
        fields.lastname ?? 'Mustermann',
        fields.position ?? 'Organiser',
        fields.email ?? 'erika@example.com',
        fields.phone ?? '+49 30 1234567',
      ],
    );
    return row.id;
  }

  /** An entry of an event settings list (ORGA_TAGS, PORTAL_TAGS, ...). */
  async entry(list: string, text: string, tenant = this.A): Promise<string> {
    const [row] = await this.sql<{ id: string }>(
      `INSERT INTO "EventSettingsEntry" (id, "tenantId", list, text)
       VALUES (gen_random_uuid(), $1, $2::"EventSettingsList", $3) RETURNING id::text`,
      [tenant, list, text],
    );
    return row.id;
  }

  /** Outbox rows about an event id (in eventId, sourceEventId or eventIds). */
  outbox(id: string) {
    return this.sql<{ subject: string; payload: Record<string, unknown> }>(
      `SELECT subject, payload FROM "OutboxEvent"
       WHERE payload->>'eventId' = $1 OR payload->>'sourceEventId' = $1 OR payload->'eventIds' ? $1
       ORDER BY "dateCreated", id`,
      [id],
    );
  }
}

/** [field, rule] of every error of an answer. */
export const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

/** An instant `days` from now, whole seconds, as ISO with Z. */
export const inDays = (days: number, hourUtc = 18) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};
