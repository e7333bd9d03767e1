import { Injectable } from '@nestjs/common';
import { BookingCancellation } from '../bookings/booking-cancellation';
import { PUBLIC_ACTOR } from '../bookings/booking-history';
import { BookingsRepository } from '../bookings/bookings.repository';
import type { Tx } from '../database/tx';

/**
 * The bookings side of a rejected invitation (IN2): the booking made with it is cancelled
 * without a fee and its seats freed, in the reject's transaction. One the booker cancelled
 * already stays as it is.
 */
@Injectable()
export class InvitationBookings {
  constructor(
    private readonly cancellation: BookingCancellation,
    private readonly bookings: BookingsRepository,
  ) {}

  async cancelForRejection(tx: Tx, tenantId: string, bookingId: string): Promise<void> {
    const booking = await this.bookings.lockStatus(tx, tenantId, bookingId);
    if (!booking || booking.status === 'cancelled') return;
    await this.cancellation.cancel(tx, tenantId, bookingId, {
      reason: 'invitation-rejected',
      actor: PUBLIC_ACTOR,
      fee: 'none',
    });
  }
}
