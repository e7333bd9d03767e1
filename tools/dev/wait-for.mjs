#!/usr/bin/env node
// Waits until a PostgreSQL or NATS server answers (used by .ci/run):
//   node tools/dev/wait-for.mjs <postgres|nats> <host:port> <seconds>
// Exit 0 once it answers, 1 when the time is up.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { natsAnswers } from './nats.mjs';

const [kind, address, seconds = '30'] = process.argv.slice(2);
const [host, port] = (address ?? '').split(':');
if (!['postgres', 'nats'].includes(kind) || !host || !Number(port)) {
  console.error('usage: node tools/dev/wait-for.mjs <postgres|nats> <host:port> <seconds>');
  process.exit(2);
}

/** A server that answers a query, or refuses us with its own error (but not "starting up"). */
async function postgresAnswers() {
  const client = new pg.Client({
    host,
    port: Number(port),
    user: 'postgres',
    database: 'postgres',
    connectionTimeoutMillis: 2000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (err) {
    // An error from the server itself (pg.DatabaseError) means it runs; 57P03: still starting.
    return err instanceof pg.DatabaseError && err.code !== '57P03';
  } finally {
    await client.end().catch(() => undefined);
  }
}

const deadline = Date.now() + Number(seconds) * 1000;
for (;;) {
  const up =
    kind === 'postgres' ? await postgresAnswers() : await natsAnswers({ host, port: Number(port) });
  if (up) {
    console.log(`${kind} answers on ${address}`);
    process.exit(0);
  }
  if (Date.now() >= deadline) break;
  await sleep(500);
}
console.error(`${kind} does not answer on ${address}`);
process.exit(1);
