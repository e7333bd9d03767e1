import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { acrossTenants, asTenant } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { SweepLoop } from '../common/sweep-loop';
import type { BookingsInvitationsConfig } from '../config';
import { MailsRepository } from '../mails/mails.repository';
import { BookingCancellation } from './booking-cancellation';
import { SYSTEM_ACTOR } from './booking-history';
import { BookingMails } from './booking-mails';
import { BookingsRepository } from './bookings.repository';

/** Reminders and cancellations per sweep. */
const SWEEP_BATCH = 50;

/**
 * Payment deadlines of open bookings, swept with the holds (SALE_SWEEP_INTERVAL_MS) on every
 * replica: a reminder mail once per deadline, the event's paymentReminderHours before it; past
 * it, the booking is cancelled without a fee (nothing was paid, nothing is owed), its seats
 * return to sale and the booker is told. Each cancellation is its own transaction under the
 * booking's lock, re-checked there: a booking paid or given a new deadline meanwhile stays.
 */
@Injectable()
export class PaymentDeadlines implements OnModuleInit, OnModuleDestroy {
  private readonly loop: SweepLoop;

  constructor(
    private readonly repo: BookingsRepository,
    private readonly cancellation: BookingCancellation,
    private readonly mails: BookingMails,
    private readonly mailbox: MailsRepository,
    @Inject(SERVICE_CONFIG) config: BookingsInvitationsConfig,
  ) {
    this.loop = new SweepLoop(
      new Logger(PaymentDeadlines.name),
      config.SALE_SWEEP_INTERVAL_MS,
      async () => {
        const { reminded, cancelled } = await this.sweep();
        return reminded === SWEEP_BATCH || cancelled === SWEEP_BATCH;
      },
    );
  }

  onModuleInit(): void {
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One sweep: reminders due, then bookings past their deadline. The reminders are claimed (and
   * their mails queued) across tenants in one transaction; the overdue bookings are found across
   * tenants, then each is cancelled as its tenant.
   */
  async sweep(): Promise<{ reminded: number; cancelled: number }> {
    const reminded = await acrossTenants('claim of payment reminders due', async () =>
      this.remind(),
    );
    const overdue = await acrossTenants(
      'lookup of bookings past their payment deadline',
      async () => this.repo.overdue(SWEEP_BATCH),
    );
    let cancelled = 0;
    for (const { id, tenantId } of overdue)
      cancelled += await asTenant(tenantId, async () => this.cancelOverdue(tenantId, id));
    return { reminded, cancelled };
  }

  /** Claims the reminders due and queues their mails; how many. */
  private remind(): Promise<number> {
    return this.repo.transaction(async (tx) => {
      const due = await this.repo.claimReminders(tx, SWEEP_BATCH);
      await this.mailbox.enqueueMany(
        tx,
        due.map((r) =>
          this.mails.paymentReminder(
            r,
            { eventId: r.eventId, title: r.title, startsAt: r.startsAt, timeZone: r.timeZone },
            r.paymentDueAt,
            r.totalGross,
          ),
        ),
      );
      return due.length;
    });
  }

  /** Cancels the booking under its lock if it is still past its deadline; 1 if it did. */
  private cancelOverdue(tenantId: string, id: string): Promise<number> {
    return this.cancellation.inTenantTurn(tenantId, () =>
      this.repo.transaction(async (tx) => {
        const row = await this.repo.lock(tx, tenantId, id);
        const stillDue =
          row?.status === 'confirmed' &&
          row.paymentStatus === 'open' &&
          row.paymentDueAt !== null &&
          row.paymentDueAt.getTime() <= Date.now();
        if (!stillDue) return 0;
        await this.cancellation.cancel(tx, tenantId, id, {
          reason: 'payment-overdue',
          actor: SYSTEM_ACTOR,
          fee: 'unpaid',
        });
        return 1;
      }),
    );
  }
}
