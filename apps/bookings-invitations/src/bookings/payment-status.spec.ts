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
        'fee_due>paid',
        'fee_due>cancelled',
        'paid>partially_refunded',
        'paid>refunded',
        'partially_refunded>refunded',
      ].sort(),
    );
    expect(canTransition('unknown', 'paid')).toBe(false);
  });

  it('a whole cancellation: open -> cancelled or fee_due, paid -> refunded unless all was kept', () => {
    const all = (refunded: string, feeOwed: string) => ({ allCancelled: true, refunded, feeOwed });
    expect(paymentStatusAfterCancel('open', all('0.00', '0.00'))).toBe('cancelled');
    expect(paymentStatusAfterCancel('open', all('0.00', '24.50'))).toBe('fee_due');
    expect(paymentStatusAfterCancel('paid', all('95.00', '0.00'))).toBe('refunded');
    expect(paymentStatusAfterCancel('partially_refunded', all('95.00', '0.00'))).toBe('refunded');
    // the whole price kept as the fee: nothing goes back
    expect(paymentStatusAfterCancel('paid', all('0.00', '0.00'))).toBe('paid');
  });

  it('a partial cancellation: open stays open, paid becomes partially_refunded', () => {
    const some = (refunded: string, feeOwed: string) => ({
      allCancelled: false,
      refunded,
      feeOwed,
    });
    expect(paymentStatusAfterCancel('open', some('0.00', '5.00'))).toBe('open');
    expect(paymentStatusAfterCancel('paid', some('10.00', '0.00'))).toBe('partially_refunded');
    expect(paymentStatusAfterCancel('paid', some('0.00', '0.00'))).toBe('paid');
    expect(paymentStatusAfterCancel('partially_refunded', some('20.00', '0.00'))).toBe(
      'partially_refunded',
    );
  });
});
