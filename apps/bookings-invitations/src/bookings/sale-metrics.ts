import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import { SaleWriterThread } from './sale-writer-thread';
import { TenantSales } from './tenant-sales';

/**
 * The on-sale writer of this process (TenantSales): the batches it wrote, the bookings and holds
 * in them, the seconds it spent writing, and the restarts of its thread (SaleWriterThread). An
 * operator reads the writer's load from them: the seconds' rate near 1 is a writer that is never
 * idle, so buyers wait for the batches before theirs (2026-11-30, 2 cores: about 90 bookings a
 * batch of about 100 ms, as many as waited). Counters kept in memory and read when scraped:
 * nothing per booking beyond two additions.
 */
@Injectable()
export class SaleMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly sales: TenantSales,
    private readonly thread: SaleWriterThread,
  ) {}

  onModuleInit(): void {
    this.metrics.counter(
      'booking_sale_batches_total',
      'Batches of public bookings and holds written by this process (one transaction each)',
      () => this.sales.stats.batches,
    );
    this.metrics.counter(
      'booking_sale_batch_requests_total',
      'Public bookings and holds decided in those batches (admitted or refused)',
      () => this.sales.stats.items,
    );
    this.metrics.counter(
      'booking_sale_write_seconds_total',
      'Seconds spent writing the batches, summed over the writers of the tenants (rate 1: a writer never idle)',
      () => this.sales.stats.seconds,
    );
    this.metrics.counter(
      'booking_sale_writer_restarts_total',
      'Times the writer thread ended unasked and was started again (its batches answered 503)',
      () => this.thread.stats.restarts,
    );
  }
}
