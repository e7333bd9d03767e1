import { Pool } from 'pg';
import { EventConsumer } from '../event-consumer';
import { JetStreamConnection } from '../jetstream-connection';
import { pgOutboxDb } from './scratch';

// A consumer in a process of its own, for the kill -9 test of event-batches.int-spec.ts: applies
// CHILD_SUBJECT's events into "Applied" (with the transaction's id), CHILD_DELAY_MS per event so
// that a batch takes a while, and prints `handled <eventId>` as each handler call ends.

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

async function main() {
  const pool = new Pool({ connectionString: env('DATABASE_URL'), max: 4 });
  const conn = new JetStreamConnection({ service: 'consumer-child', natsUrl: env('NATS_URL') });
  const consumer = new EventConsumer(conn, {
    service: env('CHILD_SERVICE'),
    db: pgOutboxDb(pool),
    ackWaitMs: Number(env('CHILD_ACK_WAIT_MS')),
  });
  const delayMs = Number(env('CHILD_DELAY_MS'));
  consumer.register({
    subject: env('CHILD_SUBJECT'),
    handle: async (_event, { tx, eventId, subject }) => {
      await tx.$executeRawUnsafe(
        `INSERT INTO "Applied" ("eventId", "subject", "txid") VALUES ($1::uuid, $2, txid_current())`,
        eventId,
        subject,
      );
      await new Promise((r) => setTimeout(r, delayMs));
      process.stdout.write(`handled ${eventId}\n`);
    },
  });
  await consumer.start();
  process.stdout.write('started\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
