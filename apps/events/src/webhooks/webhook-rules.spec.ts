import { Webhook } from 'standardwebhooks';
import {
  messageIdOf,
  newSecret,
  nextAttemptAt,
  parseSchedule,
  timeOfEventId,
} from './webhook-rules';
import { WebhookSender } from './webhook-sender';

describe('webhook rules', () => {
  it('derives one message id per source event and type (a UUID)', () => {
    const a = messageIdOf('0190f3a0-0000-7000-8000-000000000001', 'person.created');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(messageIdOf('0190f3a0-0000-7000-8000-000000000001', 'person.created')).toBe(a);
    expect(messageIdOf('0190f3a0-0000-7000-8000-000000000002', 'person.created')).not.toBe(a);
    expect(messageIdOf('0190f3a0-0000-7000-8000-000000000001', 'person.deleted')).not.toBe(a);
  });

  it('reads the time of a v7 event id, and uses now for others', () => {
    expect(timeOfEventId('0190f3a0-1234-7000-8000-000000000001').toISOString()).toBe(
      new Date(0x0190f3a01234).toISOString(),
    );
    const now = new Date('2026-01-01T00:00:00Z');
    expect(timeOfEventId('9b2e5c1e-4a36-4d6f-9a57-3a0b1c2d3e4f', now)).toBe(now);
  });

  it('follows the schedule with ±10 % jitter and ends after its last step', () => {
    const schedule = parseSchedule('5, 300,1800');
    expect(schedule).toEqual([5000, 300000, 1800000]);
    const now = new Date(0);
    expect(nextAttemptAt(schedule, 1, now, () => 0.5)!.getTime()).toBe(5000);
    expect(nextAttemptAt(schedule, 2, now, () => 1)!.getTime()).toBe(330000);
    expect(nextAttemptAt(schedule, 3, now, () => 0)!.getTime()).toBe(1620000);
    expect(nextAttemptAt(schedule, 4, now)).toBeNull();
  });

  it('makes Standard Webhooks secrets, and signs with both secrets during an overlap', () => {
    const current = newSecret();
    const previous = newSecret();
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const at = new Date();
    const body = JSON.stringify({ type: 'person.created', data: {} });
    const signature = WebhookSender.signature(
      { id: 'msg_1', url: 'https://x', body, secret: current, previousSecret: previous },
      at,
    );
    expect(signature.split(' ')).toHaveLength(2);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });
});
