import { Injectable } from '@nestjs/common';
import type { Tx } from './invitations.repository';

/**
 * The bookings side of a rejected invitation (IN2): the booking made with it is cancelled
 * without a fee and its seats freed, in the reject's transaction.
 */
@Injectable()
export class InvitationBookings {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- wired to BookingCancellation when bookings land
  async cancelForRejection(_tx: Tx, _tenantId: string, bookingId: string): Promise<void> {
    throw new Error(`booking cancellation is not wired yet (booking ${bookingId})`);
  }
}
