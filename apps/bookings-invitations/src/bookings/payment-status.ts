// BK12: the payment status of a booking is a state machine. A booking starts `open` (or `paid`
// when it costs nothing).
//   open -> paid (money received) | cancelled (cancelled before paying, nothing owed)
//        | fee_due (cancelled before paying in a fee tier: the fee is owed, nothing was paid)
//   fee_due -> paid (the fee received) | cancelled (the fee written off)
//   paid -> partially_refunded | refunded; partially_refunded -> refunded
// cancelled and refunded are final. Setting the status a booking already has changes nothing (a
// retried call is fine). Cancellations move the status themselves (paymentStatusAfterCancel):
// refunds exist only for money received, a fee owed is shown as owed (amountDue).

import { Money } from '../common/money';

export const PAYMENT_STATUSES = [
  'open',
  'paid',
  'partially_refunded',
  'refunded',
  'cancelled',
  'fee_due',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  open: ['paid', 'cancelled'],
  fee_due: ['paid', 'cancelled'],
  paid: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
  cancelled: [],
};

export const isPaymentStatus = (v: unknown): v is PaymentStatus =>
  typeof v === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(v);

export const canTransition = (from: string, to: PaymentStatus): boolean =>
  isPaymentStatus(from) && PAYMENT_TRANSITIONS[from].includes(to);

/** Money was received for the booking: a cancellation refunds (minus the fee kept). */
export const hasPaid = (status: string): boolean =>
  status === 'paid' || status === 'partially_refunded';

/**
 * The payment status after cancelling tickets (some or all of a booking's valid ones).
 * `allCancelled`: no valid ticket is left; `refunded` and `feeOwed`: the booking's refunds and
 * unpaid fees over all its cancellations so far, this one included (exact decimals as text).
 * - unpaid (open): tickets left -> stays open (a lower amount due); none left -> fee_due when a
 *   fee is owed, else cancelled.
 * - paid: any refund -> partially_refunded while tickets are left, refunded with the last one;
 *   no refund at all (the whole price kept as fee) -> stays as it is.
 */
export function paymentStatusAfterCancel(
  current: string,
  change: { allCancelled: boolean; refunded: string; feeOwed: string },
): string {
  if (current === 'open') {
    if (!change.allCancelled) return 'open';
    return new Money(change.feeOwed).gt(0) ? 'fee_due' : 'cancelled';
  }
  if (hasPaid(current) && new Money(change.refunded).gt(0)) {
    return change.allCancelled ? 'refunded' : 'partially_refunded';
  }
  return current;
}

/**
 * What the booker owes now: an open booking its valid tickets' gross plus the fees of the tickets
 * it cancelled; fee_due the fees; any other status nothing (paid, or settled).
 */
export function amountDue(
  paymentStatus: string,
  validGross: string,
  cancellationFee: string | null,
): string {
  const fees = new Money(cancellationFee ?? 0);
  if (paymentStatus === 'open') return fees.plus(validGross).toFixed(2);
  if (paymentStatus === 'fee_due') return fees.toFixed(2);
  return '0.00';
}
