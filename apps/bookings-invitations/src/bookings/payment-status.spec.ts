import { canTransition, PAYMENT_STATUSES, paymentStatusAfterCancel } from './payment-status';

describe('payment status state machine (BK12)', () => {
  it('allows exactly the documented transitions', () => {
    const allowed = PAYMENT_STATUSES.flatMap((from) =>
      PAYMENT_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'open>paid',
        'open>cancelled',
        'paid>partially_refunded',
        'paid>refunded',
        'partially_refunded>refunded',
      ].sort(),
    );
    expect(canTransition('unknown', 'paid')).toBe(false);
  });

  it('a cancellation settles an open booking as cancelled and keeps a paid one paid', () => {
    expect(paymentStatusAfterCancel('open')).toBe('cancelled');
    expect(paymentStatusAfterCancel('paid')).toBe('paid');
  });
});
