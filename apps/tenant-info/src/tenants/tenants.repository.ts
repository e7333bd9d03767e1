import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Tx } from '../database/tx';
import { Prisma } from '../generated/prisma/client';

export type TenantRecord = Prisma.TenantGetPayload<object>;
export type SubscriptionRecord = Prisma.SubscriptionGetPayload<object>;

/** Tenants and their subscriptions. A tenant's own id is its tenant id: every query filters on it. */
@Injectable()
export class TenantsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  findById(id: string, db: Tx | PrismaService = this.prisma): Promise<TenantRecord | null> {
    return db.tenant.findUnique({ where: { id } });
  }

  exists(id: string): Promise<boolean> {
    return this.prisma.tenant.count({ where: { id } }).then((n) => n > 0);
  }

  /** null: no such tenant; `subscription` null: a tenant without one. */
  findSubscription(tenantId: string) {
    return this.prisma.tenant.findUnique({
      where: { id: tenantId },
      select: { subscription: true },
    });
  }

  /** The tenant and its subscription, as one nested write inside the caller's transaction. */
  create(
    tx: Tx,
    tenant: Omit<Prisma.TenantUncheckedCreateInput, 'subscription' | 'apiKeys'>,
    subscription: Omit<Prisma.SubscriptionUncheckedCreateWithoutTenantInput, 'tenantId'>,
  ): Promise<TenantRecord> {
    return tx.tenant.create({ data: { ...tenant, subscription: { create: subscription } } });
  }

  setTariff(tx: Tx, id: string, tariffId: string): Promise<TenantRecord> {
    return tx.tenant.update({ where: { id }, data: { tariffId } });
  }
}
