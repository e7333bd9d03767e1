import { Injectable, OnModuleInit } from '@nestjs/common';
import type { BookingOutcome, HoldOutcome, SaleRequest, SaleOutcome } from './booking-batch-writer';
import type { BookingRequest } from './booking-checks';
import type { HoldRequest } from '../holds/hold-checks';
import { SalesRouting } from './sales-routing';
import { SaleWriterThread } from './sale-writer-thread';
import { WriteBatches } from './write-batches';

/**
 * A batch's size: what waits, up to these. Every batch costs the same 13 round trips whatever its
 * size (README, on-sale), so more buyers should make larger batches, not more of them (200 buyers
 * made batches of about 90); the inserts bind one array per column, whatever the rows.
 */
const MAX_BATCH_REQUESTS = 250;
const MAX_BATCH_SEATS = 1000;

/**
 * The sales of each tenant: one writer per tenant, fed by public bookings (BK1) and holds (BK18)
 * of all its events in the order they arrive; what arrives while it writes goes into its next
 * batch (BookingBatchWriter, on a thread of its own: SaleWriterThread). Across replicas
 * SalesRouting sends a tenant's requests to the one replica that writes for it.
 */
@Injectable()
export class TenantSales implements OnModuleInit {
  private readonly batches: WriteBatches<SaleRequest, SaleOutcome>;

  constructor(
    writer: SaleWriterThread,
    private readonly routing: SalesRouting,
  ) {
    // A batch is one tenant's (batched by tenant), written in the writer's thread as that tenant.
    this.batches = new WriteBatches((batch) => writer.write(batch), {
      maxItems: MAX_BATCH_REQUESTS,
      weight: (r) =>
        r.kind === 'hold'
          ? r.input.tickets.reduce((n, t) => n + t.count, 0)
          : r.input.tickets.length,
      maxWeight: MAX_BATCH_SEATS,
    });
  }

  onModuleInit(): void {
    this.routing.serve((request) => this.batches.submit(request.tenantId, request));
  }

  book(request: BookingRequest): Promise<BookingOutcome> {
    return this.routing.submit(request) as Promise<BookingOutcome>;
  }

  hold(request: HoldRequest): Promise<HoldOutcome> {
    return this.routing.submit(request) as Promise<HoldOutcome>;
  }

  /** Batches written here since start and the requests in them; requests routed, by way. */
  get stats(): SalesStats {
    return { ...this.batches.stats, ...this.routing.stats };
  }
}

export interface SalesStats {
  batches: number;
  items: number;
  isolated: number;
  seconds: number;
  local: number;
  forwarded: number;
  served: number;
  takeovers: number;
}
