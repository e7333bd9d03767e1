import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma, WebhookEndpoint as EndpointRow } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** Headers worth storing: none is NULL. */
const headersJson = (h: Record<string, string>) =>
  Object.keys(h).length ? JSON.stringify(h) : null;
export type { EndpointRow };

export const ENDPOINT_SORT_FIELDS = [
  'dateCreated',
  'dateModified',
  'url',
  'enabled',
  'id',
] as const;
export const DELIVERY_SORT_FIELDS = [
  'dateCreated',
  'dateDelivered',
  'nextAttemptAt',
  'status',
  'attempts',
  'id',
] as const;

/** How many attempts of each delivery a log page shows. */
export const ATTEMPTS_SHOWN = 20;

const DELIVERY_SELECT = {
  id: true,
  endpointId: true,
  messageId: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastResponseCode: true,
  lastDurationMs: true,
  lastError: true,
  dateCreated: true,
  dateDelivered: true,
  message: { select: { type: true } },
} satisfies Prisma.WebhookDeliverySelect;
export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof DELIVERY_SELECT }>;

export interface AttemptRow {
  deliveryId: string;
  attemptedAt: Date;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A due delivery claimed by the worker, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  endpointId: string;
  attempts: number;
  messageId: string;
  payload: Prisma.JsonValue;
  /** The request that caused the message (X-Request-Id, traceparent...), null if none. */
  headers: Record<string, string> | null;
  url: string;
  /** As stored: sealed (SecretBox), or plain if written before sealing and not re-sealed yet. */
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** What the worker records of one attempt of a claimed delivery. */
export interface AttemptRecord {
  delivery: ClaimedDelivery;
  attemptedAt: Date;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date | null;
  /** The receiver answered 410 Gone: its endpoint is disabled. */
  gone: boolean;
}

const ts = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * WebhookMessage, WebhookEndpoint, WebhookDelivery and WebhookAttempt rows. Every query of the
 * API is scoped to the tenant; the fan-out runs as its event's tenant (the consumer's scope); of
 * the delivery worker's statements (at the end), the claim and the retention see every tenant
 * (acrossTenants, in the worker), the results are recorded as their tenant.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  pageEndpoints(
    tenantId: string,
    opts: { skip: number; take: number; orderBy: Prisma.WebhookEndpointOrderByWithRelationInput[] },
  ): Promise<[EndpointRow[], number]> {
    return Promise.all([
      this.prisma.webhookEndpoint.findMany({ where: { tenantId }, ...opts }),
      this.prisma.webhookEndpoint.count({ where: { tenantId } }),
    ]);
  }

  findEndpoint(tenantId: string, id: string, db: Tx = this.prisma): Promise<EndpointRow | null> {
    return db.webhookEndpoint.findFirst({ where: { tenantId, id } });
  }

  /** The endpoint locked until the transaction ends (rotation, update and removal serialise). */
  /**
   * Deliveries of every tenant still to be made, those of them that failed at least once, and
   * those given up (the operator's metrics).
   */
  async deliveryBacklog(): Promise<{ pending: number; retrying: number; failed: number }> {
    const [row] = await this.prisma.$queryRaw<
      { pending: bigint; retrying: bigint; failed: bigint }[]
    >`
      SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
             count(*) FILTER (WHERE status = 'pending' AND attempts > 0) AS retrying,
             count(*) FILTER (WHERE status = 'failed') AS failed
        FROM "WebhookDelivery" WHERE status IN ('pending', 'failed')`;
    return {
      pending: Number(row?.pending ?? 0),
      retrying: Number(row?.retrying ?? 0),
      failed: Number(row?.failed ?? 0),
    };
  }

  async lockEndpoint(tx: Tx, tenantId: string, id: string): Promise<EndpointRow | null> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM "WebhookEndpoint"
      WHERE "tenantId" = ${tenantId} AND id = ${id}::uuid FOR UPDATE`;
    return rows.length ? this.findEndpoint(tenantId, id, tx) : null;
  }

  /** Serialises the registrations of one tenant, so the endpoint limit holds under concurrency. */
  async lockTenant(tx: Tx, tenantId: string): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`webhooks:${tenantId}`}, 0))`;
  }

  /**
   * Whether the tenant has an endpoint, enabled or not, subscribed to the type: one indexed
   * lookup outside any transaction (tenantId leads an index; a tenant has a few endpoints).
   */
  async hasSubscribedEndpoint(tenantId: string, type: string): Promise<boolean> {
    const found = await this.prisma.webhookEndpoint.findFirst({
      where: { tenantId, eventTypes: { has: type } },
      select: { id: true },
    });
    return found !== null;
  }

  countEndpoints(tx: Tx, tenantId: string): Promise<number> {
    return tx.webhookEndpoint.count({ where: { tenantId } });
  }

  createEndpoint(tx: Tx, data: Prisma.WebhookEndpointUncheckedCreateInput): Promise<EndpointRow> {
    return tx.webhookEndpoint.create({ data });
  }

  updateEndpoint(
    tx: Tx,
    id: string,
    data: Prisma.WebhookEndpointUncheckedUpdateInput,
  ): Promise<EndpointRow> {
    return tx.webhookEndpoint.update({ where: { id }, data });
  }

  deleteEndpoint(tx: Tx, tenantId: string, id: string) {
    return tx.webhookEndpoint.deleteMany({ where: { tenantId, id } });
  }

  /**
   * Up to `limit` endpoints after `afterId` (by id) whose secret or previous secret is not sealed
   * with the key `prefix` names (plain, or sealed with an older key): the re-seal's next batch.
   */
  endpointsToReseal(prefix: string, afterId: string | null, limit: number) {
    return this.prisma.$queryRaw<{ id: string; secret: string; previousSecret: string | null }[]>`
      SELECT id::text AS id, secret, "previousSecret" FROM "WebhookEndpoint"
      WHERE (${afterId}::uuid IS NULL OR id > ${afterId}::uuid)
        AND (NOT starts_with(secret, ${prefix})
             OR ("previousSecret" IS NOT NULL AND NOT starts_with("previousSecret", ${prefix})))
      ORDER BY id LIMIT ${limit}`;
  }

  /**
   * Replaces an endpoint's stored secrets if they are still `from` (a rotation meanwhile wins);
   * whether it did.
   */
  async replaceSecrets(
    id: string,
    from: { secret: string; previousSecret: string | null },
    to: { secret: string; previousSecret: string | null },
  ): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE "WebhookEndpoint" SET secret = ${to.secret}, "previousSecret" = ${to.previousSecret}
      WHERE id = ${id}::uuid AND secret = ${from.secret}
        AND "previousSecret" IS NOT DISTINCT FROM ${from.previousSecret}::text`;
    return n === 1;
  }

  /** A page of an endpoint's deliveries and, in one more query, the latest attempts of each. */
  async pageDeliveries(
    tenantId: string,
    endpointId: string,
    opts: {
      skip: number;
      take: number;
      orderBy: Prisma.WebhookDeliveryOrderByWithRelationInput[];
      status?: string;
    },
  ): Promise<[DeliveryRow[], number, AttemptRow[]]> {
    const where = { tenantId, endpointId, ...(opts.status ? { status: opts.status } : {}) };
    const [rows, total] = await Promise.all([
      this.prisma.webhookDelivery.findMany({
        where,
        select: DELIVERY_SELECT,
        skip: opts.skip,
        take: opts.take,
        orderBy: opts.orderBy,
      }),
      this.prisma.webhookDelivery.count({ where }),
    ]);
    return [
      rows,
      total,
      await this.latestAttempts(
        tenantId,
        rows.map((r) => r.id),
      ),
    ];
  }

  async findDelivery(tenantId: string, endpointId: string, id: string, db: Tx = this.prisma) {
    return db.webhookDelivery.findFirst({
      where: { tenantId, endpointId, id },
      select: DELIVERY_SELECT,
    });
  }

  /** The latest ATTEMPTS_SHOWN attempts of each delivery, newest first, in one query. */
  latestAttempts(tenantId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
    if (!deliveryIds.length) return Promise.resolve([]);
    return this.prisma.$queryRaw<AttemptRow[]>`
      SELECT "deliveryId"::text AS "deliveryId", "attemptedAt", "responseCode", "durationMs", "error"
      FROM (
        SELECT a.*, row_number() OVER (PARTITION BY "deliveryId" ORDER BY "attemptedAt" DESC, id) AS n
        FROM "WebhookAttempt" a
        WHERE "tenantId" = ${tenantId} AND "deliveryId" = ANY(${deliveryIds}::uuid[])
      ) ranked
      WHERE n <= ${ATTEMPTS_SHOWN}
      ORDER BY "deliveryId", "attemptedAt" DESC`;
  }

  /** Queues deliveries again: pending, due now, a fresh run of attempts (the log keeps the old). */
  requeue(tx: Tx, where: Prisma.WebhookDeliveryWhereInput, now: Date) {
    return tx.webhookDelivery.updateMany({
      where,
      data: { status: 'pending', attempts: 0, nextAttemptAt: now },
    });
  }

  countDeliveries(tx: Tx, where: Prisma.WebhookDeliveryWhereInput): Promise<number> {
    return tx.webhookDelivery.count({ where });
  }

  /**
   * The message of a source event and one delivery per endpoint of the tenant subscribed to
   * its type, in one statement: due at `now` for an enabled endpoint, `failed` with `notSent`
   * for a disabled one. Only endpoints registered by the time the source event happened
   * (`occurredAt`, the time in its UUIDv7 id) get it. Repeats (a redelivered source event) add
   * nothing. How many deliveries were added; 0 when no endpoint is subscribed (nothing is stored
   * then).
   */
  fanOut(
    tx: Tx,
    m: {
      id: string;
      tenantId: string;
      type: string;
      payload: Prisma.InputJsonObject;
      /** The request that caused it (requestHeaders), for the worker's lines. */
      headers: Record<string, string>;
      /** When the source event happened. */
      occurredAt: Date;
    },
    now: Date,
    notSent: string,
  ): Promise<number> {
    return tx.$executeRaw`
      WITH endpoint AS (
        SELECT id, enabled FROM "WebhookEndpoint"
        WHERE "tenantId" = ${m.tenantId} AND ${m.type} = ANY("eventTypes")
          AND "dateCreated" <= ${ts(m.occurredAt)}::timestamp(3)
      ), message AS (
        INSERT INTO "WebhookMessage" (id, "tenantId", type, payload, "dateCreated", headers)
        SELECT ${m.id}::uuid, ${m.tenantId}, ${m.type}, ${JSON.stringify(m.payload)}::jsonb,
          ${ts(now)}::timestamp(3), ${headersJson(m.headers)}::jsonb
        WHERE EXISTS (SELECT 1 FROM endpoint)
        ON CONFLICT (id) DO NOTHING
      )
      INSERT INTO "WebhookDelivery"
        (id, "tenantId", "endpointId", "messageId", status, "nextAttemptAt", "lastError", "dateCreated")
      SELECT gen_random_uuid(), ${m.tenantId}, e.id, ${m.id}::uuid,
        CASE WHEN e.enabled THEN 'pending' ELSE 'failed' END,
        CASE WHEN e.enabled THEN ${ts(now)}::timestamp(3) END,
        CASE WHEN e.enabled THEN NULL ELSE ${notSent} END,
        ${ts(now)}::timestamp(3)
      FROM endpoint e
      ON CONFLICT ("endpointId", "messageId") DO NOTHING`;
  }

  /**
   * Up to `limit` due deliveries of enabled endpoints, with their endpoint and message, locked
   * (`SKIP LOCKED`: replicas take different ones) and pushed out to `leaseUntil` in one
   * statement, so no transaction stays open while they are sent.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    // The due rows are picked once (a materialised CTE): as a subquery in FROM the planner may
    // rescan it per joined row, and each rescan skips the rows locked so far and picks others,
    // claiming several batches (seen under row-level security, whose conditions changed the plan:
    // 8-10 deliveries in flight with a batch of 4).
    return this.prisma.$queryRaw<ClaimedDelivery[]>`
      WITH due AS MATERIALIZED (
        SELECT d2.id FROM "WebhookDelivery" d2
        JOIN "WebhookEndpoint" e2 ON e2.id = d2."endpointId" AND e2.enabled
        WHERE d2.status = 'pending' AND d2."nextAttemptAt" <= ${ts(now)}::timestamp(3)
        ORDER BY d2."nextAttemptAt", d2.id
        LIMIT ${limit}
        FOR UPDATE OF d2 SKIP LOCKED
      )
      UPDATE "WebhookDelivery" d SET "nextAttemptAt" = ${ts(leaseUntil)}::timestamp(3)
      FROM due, "WebhookEndpoint" e, "WebhookMessage" m
      WHERE d.id = due.id AND e.id = d."endpointId" AND m.id = d."messageId"
      RETURNING d.id::text AS id, d."tenantId", d."endpointId"::text AS "endpointId", d.attempts,
        d."messageId"::text AS "messageId", m.payload, m.headers, e.url, e.secret,
        e."previousSecret", e."previousSecretExpiresAt"`;
  }

  /**
   * A round's attempts, each with its log row and its delivery's new state, in `tx`: two
   * statements for the whole round. A delivery is updated only if it is still the claimed run
   * (pending, same attempt count): a redelivery (I4, I5) meanwhile started a new one. (`= ANY`
   * keeps the update on the primary key whatever the statistics say: during an on-sale the
   * pending deliveries are many and a fresh table's statistics do not know it yet.) A delivery
   * deleted while it was being sent (its endpoint removed) gets no attempt row: the round's other
   * results are recorded all the same (the foreign key failed the whole round once, and every
   * other delivery of the tenant in it would have been sent again).
   */
  async recordAttempts(tx: Tx, records: AttemptRecord[]): Promise<void> {
    if (!records.length) return;
    const col = <T>(f: (r: AttemptRecord) => T) => records.map(f);
    // FOR KEY SHARE: a delivery deleted by a transaction that commits meanwhile drops out of the
    // join instead of failing the foreign key check
    await tx.$executeRaw`
      INSERT INTO "WebhookAttempt"
        (id, "tenantId", "deliveryId", "attemptedAt", "responseCode", "durationMs", error)
      SELECT gen_random_uuid(), x.tenant, x.delivery, x.at, x.code, x.ms, x.error
      FROM unnest(${col((r) => r.delivery.tenantId)}::text[],
        ${col((r) => r.delivery.id)}::uuid[], ${col((r) => ts(r.attemptedAt))}::timestamp(3)[],
        ${col((r) => r.responseCode)}::int[], ${col((r) => r.durationMs)}::int[],
        ${col((r) => r.error)}::text[]) AS x(tenant, delivery, at, code, ms, error)
      JOIN "WebhookDelivery" d ON d.id = x.delivery
      FOR KEY SHARE OF d`;
    await tx.$executeRaw`
      UPDATE "WebhookDelivery" d SET status = x.status, attempts = x.attempts + 1,
        "nextAttemptAt" = x.next, "lastResponseCode" = x.code, "lastDurationMs" = x.ms,
        "lastError" = x.error,
        "dateDelivered" = CASE WHEN x.status = 'succeeded' THEN x.at ELSE d."dateDelivered" END
      FROM unnest(${col((r) => r.delivery.id)}::uuid[], ${col((r) => r.delivery.attempts)}::int[],
        ${col((r) => r.status)}::text[], ${col((r) => ts(r.nextAttemptAt))}::timestamp(3)[],
        ${col((r) => r.responseCode)}::int[], ${col((r) => r.durationMs)}::int[],
        ${col((r) => r.error)}::text[], ${col((r) => ts(r.attemptedAt))}::timestamp(3)[])
        AS x(id, attempts, status, next, code, ms, error, at)
      WHERE d.id = ANY(${col((r) => r.delivery.id)}::uuid[]) AND d.id = x.id
        AND d.status = 'pending' AND d.attempts = x.attempts`;
  }

  /** Ends the run of failures of the endpoints that had a success. */
  endFailing(tx: Tx, endpointIds: string[]) {
    return tx.webhookEndpoint.updateMany({
      where: { id: { in: endpointIds }, failingSince: { not: null } },
      data: { failingSince: null },
    });
  }

  /** Starts (or continues) an endpoint's run of failures; since when it has been failing. */
  async markFailing(tx: Tx, endpointId: string, now: Date): Promise<Date | null> {
    const rows = await tx.$queryRaw<{ failingSince: Date | null }[]>`
      UPDATE "WebhookEndpoint" SET "failingSince" = coalesce("failingSince", ${ts(now)}::timestamp(3))
      WHERE id = ${endpointId}::uuid RETURNING "failingSince"`;
    return rows[0]?.failingSince ? new Date(rows[0].failingSince) : null;
  }

  /** Disables an enabled endpoint, saying why. */
  disableEndpoint(tx: Tx, endpointId: string, now: Date, reason: string, failingSince?: Date) {
    return tx.webhookEndpoint.updateMany({
      where: { id: endpointId, enabled: true },
      data: {
        enabled: false,
        disabledAt: now,
        disabledReason: reason,
        ...(failingSince ? { failingSince } : {}),
      },
    });
  }

  /**
   * Deletes up to 1000 messages created before `cutoff` that no pending delivery needs (their
   * deliveries and attempts go by cascade); how many.
   */
  pruneMessages(cutoff: Date): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM "WebhookMessage" WHERE id IN (
        SELECT m.id FROM "WebhookMessage" m
        WHERE m."dateCreated" < ${ts(cutoff)}::timestamp(3)
          AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d
                          WHERE d."messageId" = m.id AND d.status = 'pending')
        LIMIT 1000)`;
  }
}
