import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma, WebhookEndpoint as EndpointRow } from '../generated/prisma/client';

export type Tx = Prisma.TransactionClient;
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

/** WebhookEndpoint, WebhookDelivery and WebhookAttempt rows; every query is scoped to the tenant. */
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
}
