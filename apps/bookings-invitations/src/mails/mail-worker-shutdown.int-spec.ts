import { runSql } from '@crm/testing';
import { MailWorker } from './mail-worker';
import { eventually, MailTestKit } from './test/mail-test-kit';

// Issue 23, drain: a mail worker shut down (Nest app.close(), what its process's SIGTERM runs)
// while it holds a claimed batch, most of it not started, against a real SMTP server that accepts
// slowly. The mails being sent finish and are marked sent; the rest of the batch is handed back
// at once, so the next worker sends it now, not after MAIL_LEASE_MS (10 min); no mail is both
// sent and handed back (each arrives once).

jest.setTimeout(90_000);

const MAILS = 30;
/** One batch holds them all; two in flight at a time. */
const ENV = { MAIL_BATCH_SIZE: String(MAILS), MAIL_CONCURRENCY: '2' };

let t: MailTestKit;
beforeAll(async () => {
  t = await MailTestKit.start('bookings_invitations_it_mail_shutdown', ENV, {
    acceptDelayMs: 300,
  });
}, 90_000);
afterAll(async () => t?.close());

interface Row {
  id: string;
  status: string;
  leased: boolean;
}

it('closed while sending a batch: the mails in flight are sent, the rest handed back at once, each sent once', async () => {
  const replica = await t.replica(ENV);
  // only the replica sends until it shuts down
  await t.worker.stop();
  try {
    const ids = await t.queue(
      Array.from({ length: MAILS }, (_, i) => ({ subject: `Drain ${i}` })),
      'tenant-drain',
    );
    const mine = new Set(ids);
    const arrived = () =>
      t.smtp.messages
        .map((m) => m.parsed.headers.get('x-crm-mail-id') as string)
        .filter((id) => mine.has(id));
    // the replica's batch is claimed and being sent
    await eventually(async () => expect(replica.app.get(MailWorker).stats.sent).toBeGreaterThan(0));
    await replica.app.close();

    const rows = await runSql<Row>(
      t.svc.databaseUrl,
      `SELECT id::text, status, (status = 'queued' AND "nextAttemptAt" > now()) AS leased
         FROM "Mail" WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    // nothing left leased to a worker that is gone
    expect(rows.filter((r) => r.leased)).toEqual([]);
    // what arrived is marked sent, and only that: no mail both sent and handed back
    const atClose = new Set(arrived());
    expect(atClose.size).toBeGreaterThan(0);
    expect(atClose.size).toBeLessThan(MAILS);
    expect(new Set(rows.filter((r) => r.status === 'sent').map((r) => r.id))).toEqual(atClose);
    expect(rows.filter((r) => r.status !== 'sent' && r.status !== 'queued')).toEqual([]);

    // the next worker sends the rest now: far within the 10 min a held lease would take
    t.worker.start();
    await eventually(async () => expect(new Set(arrived()).size).toBe(MAILS), 30_000);
    await eventually(async () => {
      const sent = await runSql<{ n: number }>(
        t.svc.databaseUrl,
        `SELECT count(*)::int AS n FROM "Mail" WHERE id = ANY($1::uuid[]) AND status = 'sent'`,
        [ids],
      );
      expect(sent[0].n).toBe(MAILS);
    });
    expect(arrived()).toHaveLength(MAILS);
  } finally {
    t.worker.start();
    await replica.app.close().catch(() => undefined);
  }
});
