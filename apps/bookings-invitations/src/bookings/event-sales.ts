import { Injectable } from '@nestjs/common';
import {
  BookingBatchWriter,
  BookingOutcome,
  HoldOutcome,
  SaleRequest,
  SaleOutcome,
} from './booking-batch-writer';
import type { BookingRequest } from './booking-checks';
import type { HoldRequest } from '../holds/hold-checks';
import { WriteBatches } from './write-batches';

/**
 * A batch's size: enough to carry an on-sale (see the README's figures), small enough that its
 * multi-row inserts stay far below PostgreSQL's 65,535 parameters (a ticket row has 17).
 */
const MAX_BATCH_REQUESTS = 100;
const MAX_BATCH_SEATS = 1000;

/**
 * The sale of each event: one writer per event (per replica; across replicas the counters'
 * locks take turns), fed by public bookings (BK1) and holds (BK18) in the order they arrive.
 * What arrives while the writer writes goes into its next batch (BookingBatchWriter).
 */
@Injectable()
export class EventSales {
  private readonly batches: WriteBatches<SaleRequest, SaleOutcome>;

  constructor(writer: BookingBatchWriter) {
    this.batches = new WriteBatches((batch) => writer.write(batch), {
      maxItems: MAX_BATCH_REQUESTS,
      weight: (r) =>
        r.kind === 'hold'
          ? r.input.tickets.reduce((n, t) => n + t.count, 0)
          : r.input.tickets.length,
      maxWeight: MAX_BATCH_SEATS,
    });
  }

  book(request: BookingRequest): Promise<BookingOutcome> {
    return this.submit(request) as Promise<BookingOutcome>;
  }

  hold(request: HoldRequest): Promise<HoldOutcome> {
    return this.submit(request) as Promise<HoldOutcome>;
  }

  /** Batches written since start and the requests in them. */
  get stats(): { batches: number; items: number; isolated: number } {
    return { ...this.batches.stats };
  }

  private submit(request: SaleRequest): Promise<SaleOutcome> {
    return this.batches.submit(`${request.tenantId}/${request.eventId}`, request);
  }
}
