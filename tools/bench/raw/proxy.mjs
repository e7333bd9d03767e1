// A bare reverse proxy: node:http in, undici out, no checks, headers passed as they came. Measured
// beside the gateway in scenario 3 without a goal: the floor of any Node.js proxy on this machine,
// so a gateway/direct ratio can be read against what a proxy costs at all.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { whenListening } from '../raw-baseline.mjs';

const self = fileURLToPath(import.meta.url);

/** Starts the proxy in its own process (as the gateway runs in its own), forwarding to `upstream`. */
export function startBareProxy(port, upstream) {
  const child = fork(self, [], {
    env: { ...process.env, BARE_PROXY_PORT: String(port), BARE_PROXY_UPSTREAM: upstream },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return whenListening(child, 'bare proxy', port);
}

function serve(port, origin) {
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const server = http.createServer((req, res) => {
    // the connection's own headers stay behind, as in any proxy
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const bodyless = req.method === 'GET' || req.method === 'HEAD';
    agent
      .request({ origin, path: req.url, method: req.method, headers, body: bodyless ? null : req })
      .then(async (answer) => {
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, {
          'content-type': answer.headers['content-type'] ?? 'application/octet-stream',
          'content-length': body.length,
        });
        res.end(body);
      })
      .catch(() => {
        res.statusCode = 502;
        res.end();
      });
  });
  server.listen(port, '127.0.0.1', () => process.send?.('listening'));
  process.on('SIGTERM', () => server.close(() => agent.close().then(() => process.exit(0))));
}

if (process.env.BARE_PROXY_PORT && process.argv[1] === self) {
  serve(Number(process.env.BARE_PROXY_PORT), process.env.BARE_PROXY_UPSTREAM);
}
