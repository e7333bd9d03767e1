import { Injectable, OnModuleInit } from '@nestjs/common';
import { asTenant } from '@crm/request-context';
import {
  BookingBatchWriter,
  BookingOutcome,
  HoldOutcome,
  SaleRequest,
  SaleOutcome,
} from './booking-batch-writer';
import type { BookingRequest } from './booking-checks';
import type { HoldRequest } from '../holds/hold-checks';
import { SalesRouting } from './sales-routing';
import { WriteBatches } from './write-batches';

/**
 * A batch's size: enough to carry an on-sale (see the README's figures), small enough that its
 * multi-row inserts stay far below PostgreSQL's 65,535 parameters (a ticket row has 17).
 */
const MAX_BATCH_REQUESTS = 100;
const MAX_BATCH_SEATS = 1000;

/**
 * The sales of each tenant: one writer per tenant, fed by public bookings (BK1) and holds (BK18)
 * of all its events in the order they arrive; what arrives while it writes goes into its next
 * batch (BookingBatchWriter). Across replicas SalesRouting sends a tenant's requests to the one
 * replica that writes for it.
 */
@Injectable()
export class TenantSales implements OnModuleInit {
  private readonly batches: WriteBatches<SaleRequest, SaleOutcome>;

  constructor(
    writer: BookingBatchWriter,
    private readonly routing: SalesRouting,
  ) {
    // A batch is one tenant's (batched by tenant): its one transaction runs as that tenant, whichever
    // request (a local buyer's, or one forwarded by another replica) started the writer.
    this.batches = new WriteBatches(
      (batch) => asTenant(batch[0].tenantId, async () => writer.write(batch)),
      {
        maxItems: MAX_BATCH_REQUESTS,
        weight: (r) =>
          r.kind === 'hold'
            ? r.input.tickets.reduce((n, t) => n + t.count, 0)
            : r.input.tickets.length,
        maxWeight: MAX_BATCH_SEATS,
      },
    );
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
