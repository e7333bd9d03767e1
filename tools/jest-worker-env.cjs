// Integration and e2e files run in several jest workers at once (tools/test.mjs). Each worker
// keeps to its own nats-server and its own database names, so two files never share a queue
// group, a stream or a database. Read before the test file is loaded (setupFiles), so
// NATS_TEST_URL and freshDatabase see the worker's values.
const id = process.env.JEST_WORKER_ID;
if (id) {
  const nats = process.env[`NATS_URL_WORKER_${id}`];
  const prefix = process.env[`TEST_DATABASE_PREFIX_WORKER_${id}`];
  if (nats) process.env.NATS_URL = nats;
  if (prefix !== undefined) process.env.TEST_DATABASE_PREFIX = prefix;
}
