import { randomUUID } from 'node:crypto';
import { createAppLogging, fieldsFromHeaders, runInRequest } from '@crm/logging';
import { runSql } from '@crm/testing';
import { MailAttachments } from './mail-attachments';
import { MailWorker } from './mail-worker';
import { MailsRepository } from './mails.repository';
import { eventually, MailTestKit } from './test/mail-test-kit';

// The mail worker against the real service, PostgreSQL and a real SMTP server (smtp-server):
// delivery with attachments, an SMTP outage that delays but loses nothing, and two replicas
// sending a shared outbox exactly once.

jest.setTimeout(90_000);

// The process's first app logging is the root every app's Nest loggers write through: the lines
// of the service below land here (at debug: the worker's line per sent mail).
const lines: Record<string, unknown>[] = [];
createAppLogging({
  app: 'bookings-invitations',
  nodeEnv: 'production',
  level: 'debug',
  destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
});

let t: MailTestKit;
beforeAll(async () => {
  t = await MailTestKit.start('bookings_invitations_it_mail_worker');
  // A stand-in renderer: the worker's part is to ask the registry and attach what it answers.
  t.svc.app.get(MailAttachments).register('ticket', async (tenantId, a, language) => ({
    filename: `ticket-${a.ticketId}.pdf`,
    contentType: 'application/pdf',
    content: Buffer.from(`%PDF-1.4 ${tenantId} ${a.ticketId} ${language}`),
  }));
}, 90_000);
afterAll(async () => t?.close());

describe('mail worker', () => {
  it('sends a queued mail with its attachment, Message-ID from the mail id, and marks it sent', async () => {
    const [id] = await t.queue([
      {
        toAddress: 'ada@example.test',
        toName: 'Ada Lovelace',
        language: 'de',
        subject: 'Ihre Tickets',
        text: 'Guten Tag',
        attachments: [{ kind: 'ticket', ticketId: 'T-1' }],
      },
    ]);
    const got = await t.smtp.waitFor((m) => m.parsed.headers.get('x-crm-mail-id') === id);
    expect(got.to).toEqual(['ada@example.test']);
    expect(got.parsed.subject).toBe('Ihre Tickets');
    expect(got.parsed.text?.trim()).toBe('Guten Tag');
    expect(got.parsed.messageId).toBe(`<${id}@crm.localhost>`);
    expect(got.parsed.attachments).toHaveLength(1);
    expect(got.parsed.attachments[0]).toMatchObject({
      filename: 'ticket-T-1.pdf',
      contentType: 'application/pdf',
    });
    expect(got.parsed.attachments[0].content.toString()).toBe('%PDF-1.4 tenant-mails T-1 de');
    const row = await eventually(async () => {
      const r = await t.mail(id);
      expect(r.status).toBe('sent');
      return r;
    });
    expect(row).toMatchObject({ attempts: 1, lastError: null, messageId: `<${id}@crm.localhost>` });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('the lines about a mail carry the request id (and trace) of the change that queued it', async () => {
    const requestId = `req-${randomUUID()}`;
    const trace = randomUUID().replace(/-/g, '');
    const fields = fieldsFromHeaders(
      { requestId, tenant: 'tenant-mails', traceparent: `00-${trace}-00f067aa0ba902b7-01` },
      'x',
    );
    const [id] = await runInRequest(fields, () => t.queue([{ subject: 'Traced' }]));
    const sent = await eventually(async () => {
      const line = lines.find((l) => l.msg === `mail ${id} (invitation) sent`);
      expect(line).toBeDefined();
      return line!;
    });
    expect(sent).toMatchObject({
      level: 'debug',
      requestId,
      tenant: 'tenant-mails',
      traceId: trace,
    });
    // queued outside a request: the lines name the mail's own id
    const [other] = await t.queue([{ subject: 'Untraced' }]);
    const line = await eventually(async () => {
      const l = lines.find((x) => x.msg === `mail ${other} (invitation) sent`);
      expect(l).toBeDefined();
      return l!;
    });
    expect(line.requestId).toBe(other);
  });

  it('SMTP down: attempts grow and lastError is kept, nothing is lost; SMTP back: sent exactly once', async () => {
    await t.smtp.stop();
    let ids: string[] = [];
    try {
      ids = await t.queue(Array.from({ length: 5 }, (_, i) => ({ subject: `Outage ${i}` })));
      await eventually(async () => {
        for (const id of ids) {
          const r = await t.mail(id);
          expect(r.attempts).toBeGreaterThanOrEqual(2);
          expect(r.status).toBe('queued');
          expect(r.lastError).toMatch(/ECONNREFUSED|connect/i);
        }
      });
      // An SMTP outage does not take the service out of the load balancer.
      const ready = await fetch(`${t.svc.url}/health/ready`);
      expect(ready.status).toBe(200);
    } finally {
      await t.smtp.start();
    }
    await eventually(async () => {
      for (const id of ids) expect((await t.mail(id)).status).toBe('sent');
    }, 20_000);
    // The backoff of a failed attempt is short here; wait a little more than a second retry would take.
    await new Promise((r) => setTimeout(r, 500));
    for (const id of ids) {
      const copies = t.smtp.messages.filter((m) => m.parsed.headers.get('x-crm-mail-id') === id);
      expect(copies).toHaveLength(1);
      const r = await t.mail(id);
      expect(r.lastError).toBeNull();
      expect(r.attempts).toBeGreaterThanOrEqual(3);
    }
  });

  it('gives up on a recipient the server refuses permanently (5xx): failed, not retried', async () => {
    const [id] = await t.queue([{ toAddress: 'refused@example.test' }]);
    const row = await eventually(async () => {
      const r = await t.mail(id);
      expect(r.status).not.toBe('queued');
      return r;
    });
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBeTruthy();
  });

  it('leaves a mail leased by another worker alone until its lease runs out (a worker that died)', async () => {
    const [id] = await t.queue([{ subject: 'Leased' }]);
    await eventually(async () => expect((await t.mail(id)).status).toBe('sent'));
    // As a worker that claimed the mail and died before marking it: queued, due in 1.5 s.
    await runSql(
      t.svc.databaseUrl,
      `UPDATE "Mail" SET status = 'queued', "sentAt" = NULL,
              "nextAttemptAt" = now() + interval '1500 milliseconds' WHERE id = $1::uuid`,
      [id],
    );
    t.worker.wake();
    await new Promise((r) => setTimeout(r, 800));
    const copies = () =>
      t.smtp.messages.filter((m) => m.parsed.headers.get('x-crm-mail-id') === id);
    expect(copies()).toHaveLength(1);
    await eventually(async () => expect((await t.mail(id)).status).toBe('sent'));
    // sent again after the lease, with the same Message-ID: the receiver can tell the repeat
    expect(copies()).toHaveLength(2);
    expect(new Set(copies().map((m) => m.parsed.messageId))).toEqual(
      new Set([`<${id}@crm.localhost>`]),
    );
  });

  it('the database failing as a sent mail is marked: marked once it answers again, not sent twice', async () => {
    // issue 23's drill: PostgreSQL killed -9 just after the SMTP server took a confirmation; the
    // mark was lost, the mail was sent again when its lease ran out
    const repo = t.svc.app.get(MailsRepository);
    const down = Object.assign(
      new Error('terminating connection due to unexpected postmaster exit'),
      {
        code: '57P01',
      },
    );
    const spy = jest
      .spyOn(repo, 'markSent')
      .mockRejectedValueOnce(down)
      .mockRejectedValueOnce(down);
    try {
      const [id] = await t.queue([{ subject: 'Marked late' }]);
      const row = await eventually(async () => {
        const r = await t.mail(id);
        expect(r.status).toBe('sent');
        return r;
      });
      expect(row).toMatchObject({ attempts: 1, lastError: null });
      expect(spy).toHaveBeenCalledTimes(3);
      // a failed attempt would have been retried after MAIL_RETRY_FIRST_MS (100 ms here)
      await new Promise((r) => setTimeout(r, 1000));
      const copies = t.smtp.messages.filter((m) => m.parsed.headers.get('x-crm-mail-id') === id);
      expect(copies).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('two replicas on one database send 200 queued mails exactly once each', async () => {
    const replica = await t.replica();
    const replicaWorker = replica.app.get(MailWorker);
    const sentBefore = [t.worker.stats.sent, replicaWorker.stats.sent];
    try {
      const before = t.smtp.messages.length;
      // Queued while both run: both are woken by the commit and claim concurrently.
      const ids = await t.queue(
        Array.from({ length: 200 }, (_, i) => ({ subject: `Bulk ${i}`, tenantId: 'tenant-bulk' })),
        'tenant-bulk',
      );
      await eventually(async () => {
        const [{ n }] = await runSql<{ n: number }>(
          t.svc.databaseUrl,
          `SELECT count(*)::int AS n FROM "Mail" WHERE id = ANY($1::uuid[]) AND status = 'sent'`,
          [ids],
        );
        expect(n).toBe(200);
      }, 60_000);
      await new Promise((r) => setTimeout(r, 300));
      const received = t.smtp.messages
        .slice(before)
        .map((m) => m.parsed.headers.get('x-crm-mail-id') as string);
      expect(received.sort()).toEqual([...ids].sort());
      const [{ total }] = await runSql<{ total: number }>(
        t.svc.databaseUrl,
        `SELECT sum(attempts)::int AS total FROM "Mail" WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      expect(total).toBe(200);
      // Both replicas took part (batches of 20: neither can claim all 200 at once).
      const byFirst = t.worker.stats.sent - sentBefore[0];
      const byReplica = replicaWorker.stats.sent - sentBefore[1];
      expect(byFirst + byReplica).toBe(200);
      expect(byFirst).toBeGreaterThan(0);
      expect(byReplica).toBeGreaterThan(0);
    } finally {
      await replica.app.close();
    }
  });

  it('stops cleanly on shutdown while sending: what it held is sent once, the rest by the other replica', async () => {
    const replica = await t.replica();
    await t.worker.stop(); // only the replica sends until it shuts down
    try {
      const ids = await t.queue(
        Array.from({ length: 60 }, (_, i) => ({ subject: `Shutdown ${i}` })),
        'tenant-shutdown',
      );
      await eventually(async () =>
        expect(replica.app.get(MailWorker).stats.sent).toBeGreaterThan(0),
      );
      const started = Date.now();
      await replica.app.close();
      expect(Date.now() - started).toBeLessThan(10_000);
      // the mails it had claimed but not started are handed back, not left leased
      const leased = await runSql<{ n: number }>(
        t.svc.databaseUrl,
        `SELECT count(*)::int AS n FROM "Mail"
          WHERE id = ANY($1::uuid[]) AND status = 'queued' AND "nextAttemptAt" > now()`,
        [ids],
      );
      expect(leased[0].n).toBe(0);
      t.worker.start();
      await eventually(async () => {
        const rows = await runSql<{ n: number }>(
          t.svc.databaseUrl,
          `SELECT count(*)::int AS n FROM "Mail" WHERE id = ANY($1::uuid[]) AND status = 'sent'`,
          [ids],
        );
        expect(rows[0].n).toBe(60);
      }, 30_000);
      for (const id of ids) {
        const copies = t.smtp.messages.filter((m) => m.parsed.headers.get('x-crm-mail-id') === id);
        expect(copies).toHaveLength(1);
      }
    } finally {
      t.worker.start();
      await replica.app.close().catch(() => undefined);
    }
  });
});
