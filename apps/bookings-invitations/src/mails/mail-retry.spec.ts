import { isPermanentSmtpError, MAX_MAIL_ATTEMPTS, mailRetryDelayMs } from './mail-retry';
import { mailDomainOf, messageIdOf } from './mail-worker';

describe('mailRetryDelayMs', () => {
  it('waits 30 s, 2 min, 10 min, 1 h, 6 h, then every 12 h, and gives up after about 3 days', () => {
    const min = 60_000;
    const delays: number[] = [];
    for (let n = 1; ; n++) {
      const d = mailRetryDelayMs(n);
      if (d === null) break;
      delays.push(d);
    }
    expect(delays.slice(0, 6)).toEqual([30_000, 2 * min, 10 * min, 60 * min, 360 * min, 720 * min]);
    expect(delays.slice(5).every((d) => d === 720 * min)).toBe(true);
    expect(delays).toHaveLength(MAX_MAIL_ATTEMPTS - 1);
    const total = delays.reduce((a, b) => a + b, 0) / (24 * 60 * min);
    expect(total).toBeGreaterThan(2.5);
    expect(total).toBeLessThan(3.5);
  });

  it('keeps the ratios when the first delay is shortened (tests)', () => {
    expect(mailRetryDelayMs(1, 100)).toBe(100);
    expect(mailRetryDelayMs(2, 100)).toBe(400);
    expect(mailRetryDelayMs(MAX_MAIL_ATTEMPTS, 100)).toBeNull();
  });
});

describe('isPermanentSmtpError', () => {
  it('gives up on 5xx for the recipient or the message, retries everything else', () => {
    expect(isPermanentSmtpError({ code: 'EENVELOPE', responseCode: 550 })).toBe(true);
    expect(isPermanentSmtpError({ command: 'DATA', responseCode: 552 })).toBe(true);
    expect(isPermanentSmtpError({ code: 'EENVELOPE', responseCode: 451 })).toBe(false);
    expect(isPermanentSmtpError({ code: 'EAUTH', responseCode: 535 })).toBe(false);
    expect(isPermanentSmtpError({ code: 'ECONNECTION' })).toBe(false);
    expect(isPermanentSmtpError(new Error('boom'))).toBe(false);
    expect(isPermanentSmtpError(null)).toBe(false);
  });
});

describe('Message-ID', () => {
  it('is the mail id at the sender’s domain', () => {
    expect(mailDomainOf('CRM Events <events@crm.example>')).toBe('crm.example');
    expect(mailDomainOf('events@crm.example')).toBe('crm.example');
    expect(mailDomainOf('nobody')).toBe('localhost');
    expect(messageIdOf('abc', 'crm.example')).toBe('<abc@crm.example>');
  });
});
