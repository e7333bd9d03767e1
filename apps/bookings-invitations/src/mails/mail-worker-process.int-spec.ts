import { randomUUID } from 'node:crypto';
import { NATS_TEST_URL, runSql, startWorkerChild, WorkerChild } from '@crm/testing';
import { MailWorker } from './mail-worker';
import { eventually, FAST_MAIL_ENV, MailTestKit } from './test/mail-test-kit';

// The two processes of the service as `npm start` and the deployments run them (PROCESS_ROLE):
// the service in role `api` (in this test's process) queues mails and never sends them; a real
// child process of role `mail-worker` (main.ts) sends them to a real SMTP server, and a kill -9 in
// the middle of a batch loses none. What the lease design guarantees (mail-worker.ts): a mail is
// sent at least once; it is sent twice only when the worker died after the server accepted it
// and before marking it sent (at most MAIL_CONCURRENCY mails, those in flight), with the same
// Message-ID so the receiver can drop the repeat.

jest.setTimeout(180_000);

/** Short, so mails claimed by the killed worker are due again within the test. */
const LEASE_MS = 3000;
const CONCURRENCY = 4;
/** The SMTP server answers each message this late: a kill lands while mails are in flight. */
const ACCEPT_DELAY_MS = 100;

let t: MailTestKit;
let worker: WorkerChild | null = null;

/**
 * Of the worker that the SIGTERM test stops: so long that a claim it failed to hand back is still
 * leased when the test looks, however slow the machine.
 */
const LONG_LEASE_MS = 120_000;

/** `node main.ts` with PROCESS_ROLE=mail-worker on the api's database, ready (health 200). */
const startWorker = (leaseMs = LEASE_MS) =>
  startWorkerChild('bookings-invitations', {
    PROCESS_ROLE: 'mail-worker',
    MAIL_WORKER_NICE: '10',
    DATABASE_URL: t.svc.databaseUrl,
    NATS_URL: NATS_TEST_URL,
    SMTP_URL: t.smtp.url,
    ...FAST_MAIL_ENV,
    MAIL_CONCURRENCY: String(CONCURRENCY),
    MAIL_LEASE_MS: String(leaseMs),
  });

const copiesOf = (id: string) =>
  t.smtp.messages.filter((m) => m.parsed.headers.get('x-crm-mail-id') === id);

/**
 * `leased`: held by a claim now. `claimed`: taken by a claim and not sent, whether or not its
 * lease has run out since (queued rows start with nextAttemptAt = dateCreated; a claim moves it).
 */
const statusCounts = async (ids: string[]) =>
  runSql<{ id: string; status: string; leased: boolean; claimed: boolean }>(
    t.svc.databaseUrl,
    `SELECT id::text, status, (status = 'queued' AND "nextAttemptAt" > now()) AS leased,
            (status = 'queued' AND "nextAttemptAt" > "dateCreated") AS claimed
       FROM "Mail" WHERE id = ANY($1::uuid[])`,
    [ids],
  );

beforeAll(async () => {
  t = await MailTestKit.start(
    'bookings_invitations_it_mail_worker_process',
    { PROCESS_ROLE: 'api' },
    { acceptDelayMs: ACCEPT_DELAY_MS },
  );
}, 120_000);

afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null)
    worker.child.kill('SIGKILL');
  await t?.close();
});

describe('mail worker as a process of its own (PROCESS_ROLE)', () => {
  it('role api queues but never sends; role mail-worker sends, with the domains rendering', async () => {
    const [plain, second] = await t.queue([{ subject: 'Role api' }, { subject: 'Role api 2' }]);
    const [invoiceMail] = await t.queue([
      { subject: 'Invoice', attachments: [{ kind: 'invoice', bookingId: randomUUID() }] },
    ]);
    // Several of the api's poll intervals (200 ms): nothing claimed, nothing sent.
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.smtp.messages).toHaveLength(0);
    for (const id of [plain, second, invoiceMail])
      expect(await t.mail(id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(t.svc.app.get(MailWorker).stats).toEqual({ sent: 0, failedAttempts: 0, failed: 0 });

    worker = await startWorker();
    for (const id of [plain, second]) {
      await t.smtp.waitFor((m) => m.parsed.headers.get('x-crm-mail-id') === id, 30_000);
      await eventually(async () => expect((await t.mail(id)).status).toBe('sent'));
    }
    // The invoices domain renders in the worker process: the booking is unknown, so it gives up
    // (AttachmentGoneError), not "no renderer".
    const row = await eventually(async () => {
      const r = await t.mail(invoiceMail);
      expect(r.status).toBe('failed');
      return r;
    });
    expect(row.lastError).toMatch(/booking .* no longer exists/);
    expect(t.svc.app.get(MailWorker).stats.sent).toBe(0);

    // Probes only: no REST, no GraphQL on the worker's port.
    expect((await fetch(`${worker.url}/health/live`)).status).toBe(200);
    expect((await fetch(`${worker.url}/v1/crm/bookings`)).status).toBe(404);
    expect((await fetch(`${worker.url}/graphql`)).status).toBe(404);
  });

  it('kill -9 in the middle of a batch: no mail lost, only mails in flight sent twice', async () => {
    const ids = await t.queue(
      Array.from({ length: 60 }, (_, i) => ({ subject: `Kill ${i}` })),
      'tenant-kill',
    );
    const mine = new Set(ids);
    const received = () =>
      t.smtp.messages.filter((m) => mine.has(m.parsed.headers.get('x-crm-mail-id') as string));
    await eventually(async () => expect(received().length).toBeGreaterThanOrEqual(8), 30_000);
    worker!.child.kill('SIGKILL');
    await worker!.exited;
    // Mails the server was still accepting arrive now; no process sends until the next worker.
    await new Promise((r) => setTimeout(r, ACCEPT_DELAY_MS * 3));
    const atKill = await statusCounts(ids);
    const sentAtKill = atKill.filter((r) => r.status === 'sent').map((r) => r.id);
    // Claimed, not "leased": on a busy machine the batch's 3 s lease may have run out by now.
    const claimedAtKill = atKill.filter((r) => r.claimed).length;
    const receivedAtKill = received().length;
    expect(sentAtKill.length).toBeLessThan(60);
    // Mid-batch: the dead worker holds claimed mails it has not sent.
    expect(claimedAtKill).toBeGreaterThan(0);

    // (the next test stops this one with SIGTERM)
    worker = await startWorker(LONG_LEASE_MS);
    await eventually(async () => {
      const rows = await statusCounts(ids);
      expect(rows.filter((r) => r.status === 'sent')).toHaveLength(60);
    }, 60_000);
    await new Promise((r) => setTimeout(r, ACCEPT_DELAY_MS * 3));

    const repeated = ids.filter((id) => copiesOf(id).length > 1);
    for (const id of ids) expect(copiesOf(id).length).toBeGreaterThanOrEqual(1);
    // A mail marked sent before the kill is never sent again.
    for (const id of sentAtKill) expect(copiesOf(id)).toHaveLength(1);
    // Repeats: only the mails in flight at the kill (accepted, not yet marked), same Message-ID.
    expect(repeated.length).toBeLessThanOrEqual(CONCURRENCY);
    for (const id of repeated)
      expect(new Set(copiesOf(id).map((m) => m.parsed.messageId))).toEqual(
        new Set([`<${id}@crm.localhost>`]),
      );
    console.log(
      `kill -9: ${receivedAtKill} of 60 received and ${sentAtKill.length} marked sent at the kill, ` +
        `${claimedAtKill} claimed by the dead worker and not sent; after the restart all 60 sent, ` +
        `${repeated.length} received twice`,
    );
  });

  it('SIGTERM: the worker finishes what it sends, hands back its claims and exits 0', async () => {
    const ids = await t.queue(
      Array.from({ length: 40 }, (_, i) => ({ subject: `Term ${i}` })),
      'tenant-term',
    );
    const mine = new Set(ids);
    await eventually(
      async () =>
        expect(
          t.smtp.messages.filter((m) => mine.has(m.parsed.headers.get('x-crm-mail-id') as string))
            .length,
        ).toBeGreaterThan(0),
      30_000,
    );
    const started = Date.now();
    worker!.child.kill('SIGTERM');
    expect(await worker!.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, ACCEPT_DELAY_MS * 3));
    const rows = await statusCounts(ids);
    expect(rows.filter((r) => r.leased)).toEqual([]);
    for (const r of rows.filter((x) => x.status === 'sent')) expect(copiesOf(r.id)).toHaveLength(1);
    worker = null;
  });
});
