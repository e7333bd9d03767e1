// BK12: the payment status of a booking is a state machine. A booking starts `open` (or `paid`
// when it costs nothing). open -> paid (money received) | cancelled (cancelled before paying);
// paid -> partially_refunded | refunded; partially_refunded -> refunded. cancelled and refunded
// are final. Setting the status a booking already has changes nothing (a retried call is fine).

export const PAYMENT_STATUSES = [
  'open',
  'paid',
  'partially_refunded',
  'refunded',
  'cancelled',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  open: ['paid', 'cancelled'],
  paid: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
  cancelled: [],
};

export const isPaymentStatus = (v: unknown): v is PaymentStatus =>
  typeof v === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(v);

export const canTransition = (from: string, to: PaymentStatus): boolean =>
  isPaymentStatus(from) && PAYMENT_TRANSITIONS[from].includes(to);

/** The payment status after a cancellation: an unpaid booking is settled as cancelled. */
export const paymentStatusAfterCancel = (current: string): string =>
  current === 'open' ? 'cancelled' : current;
