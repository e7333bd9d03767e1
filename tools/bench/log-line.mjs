// npm run bench -- log-line: what one request line costs the app that writes it (issue 22), in
// µs per line: logRequest with a request's fields, through the app logger as the apps configure
// it (level, time, mixin, redaction, batched writes), into /dev/null, inside a request context.
// A loop in one process, so a change to the line shows apart from the noise of a whole request.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LINES = Number(process.env.LOG_LINES ?? 200_000);

export async function main() {
  execFileSync(process.execPath, [path.join(root, 'tools/build.mjs')], { stdio: 'inherit' });
  const require = createRequire(import.meta.url);
  const pino = require('pino');
  const logging = path.join(root, 'dist/libs/logging/src');
  const { createAppLogger } = require(path.join(logging, 'app-logger.js'));
  const { logRequest } = require(path.join(logging, 'request-logging.js'));
  const { runInRequest } = require(path.join(logging, 'request-context.js'));
  const fields = {
    requestId: '3f1c2a9e-1b7d-4c55-9a0e-6d2f4b8a7c11',
    tenant: 'tenant-42',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  };
  const outcome = { method: 'GET', route: '/v1/crm/people/*', status: 200, durationMs: 3.14159 };
  const rounds = [];
  for (let round = 0; round < 3; round++) {
    const log = createAppLogger({
      app: 'gateway',
      nodeEnv: 'production',
      destination: pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 }),
    });
    rounds.push(
      runInRequest(fields, () => {
        for (let i = 0; i < LINES / 10; i++) logRequest(log, outcome, fields); // warm-up
        const started = process.hrtime.bigint();
        for (let i = 0; i < LINES; i++) logRequest(log, outcome, fields);
        return Number(process.hrtime.bigint() - started) / 1000 / LINES;
      }),
    );
  }
  rounds.sort((a, b) => a - b);
  console.log(
    `bench log-line: ${rounds[1].toFixed(2)} µs per request line (median of 3 rounds of ` +
      `${LINES} lines; rounds ${rounds.map((r) => r.toFixed(2)).join(', ')})`,
  );
}
