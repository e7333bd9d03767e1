// The raw baselines: plain node:http (+ pg) servers doing a scenario's work without a framework,
// the floor a service is measured against. Each runs in its own process, as the services do, so
// it does not share an event loop with autocannon. A baseline module (tools/bench/raw/*.mjs)
// exports `createHandler(pool)` -> async (req, body) => [status, payload]; payload is sent as JSON.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

const self = fileURLToPath(import.meta.url);

/** The envelope every service answers with. */
export const envelope = (data, statusCode = 200) => ({
  data,
  message: null,
  metaData: { totalResults: 1, responseTimeStamp: new Date().toISOString() },
  statusCode,
});

/**
 * Runs a create statement whose first column `lost` says that a concurrent request created a
 * settings entry it needed first (then it wrote nothing): again, as it will see that entry now.
 */
export async function runCreate(pool, sql, params) {
  for (let attempt = 1; ; attempt++) {
    const { rows } = await pool.query(sql, params);
    if (!rows[0].lost) return rows[0];
    if (attempt === 3) throw new Error('lost the race for a settings entry three times');
  }
}

/** Starts `module` (a path) on `port` in a child process, with a pool of 10 on `databaseUrl`. */
export function startRawBaseline(name, port, module, databaseUrl) {
  const child = fork(self, [], {
    // UTC: Prisma stores timestamps without time zone as UTC; pg reads them as local time
    env: { ...process.env, TZ: 'UTC', RAW_MODULE: module, RAW_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  child.send({ databaseUrl });
  return whenListening(child, name, port, `raw baseline ${name}`);
}

/**
 * A forked baseline process (raw servers, the bare proxy) once it says it listens on `port`:
 * `{ name, url, stop }`; rejects (naming it `label`) when it exits first.
 */
export function whenListening(child, name, port, label = name) {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${label} exited ${code}`)));
    child.once('message', () =>
      resolve({
        name,
        url: `http://127.0.0.1:${port}`,
        stop: async () => {
          child.removeAllListeners('exit');
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        },
      }),
    );
  });
}

async function serve({ databaseUrl }) {
  pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v); // `1980-05-17`, as the API answers
  // the service's pool size (DATABASE_POOL_SIZE, default 10)
  const pool = databaseUrl
    ? new pg.Pool({ connectionString: databaseUrl, max: 10, options: '-c TimeZone=UTC' })
    : null;
  const { createHandler } = await import(pathToFileURL(process.env.RAW_MODULE).href);
  const handle = createHandler(pool);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
        const [status, payload] = await handle(req, body);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err.stack ?? err));
      }
    });
  });
  server.listen(Number(process.env.RAW_PORT), '127.0.0.1', () => process.send('ready'));
  // nothing to flush: a stop or the runner going away ends the process at once
  process.on('SIGTERM', () => process.exit(0));
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[1] === self) process.once('message', serve);
