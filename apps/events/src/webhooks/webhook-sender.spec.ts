import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { newSecret } from './webhook-rules';
import { WebhookSender } from './webhook-sender';

// The HTTP side of a delivery against a real local server: signed headers, no redirects
// followed, a timeout, and no more of a failing answer kept than a short excerpt.

let server: http.Server;
let base: string;
const seen: string[] = [];
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url!);
    if (req.url === '/redirect') res.writeHead(302, { location: 'http://127.0.0.1:1/x' }).end();
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000).unref();
    else if (req.url === '/big') res.writeHead(500).end('x'.repeat(100_000));
    else {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(200).end();
      });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((r) => server.close(r));
});

const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 300 });
afterAll(() => sender.close());
const secret = newSecret();
const message = (path: string) => ({
  id: '0190f3a0-0000-8000-8000-000000000001',
  url: `${base}${path}`,
  body: '{"type":"person.created","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
  secret,
  previousSecret: null,
});

it('a 2xx answer succeeds', async () => {
  const r = await sender.send(message('/ok'));
  expect(r).toMatchObject({ succeeded: true, responseCode: 200, error: null });
  expect(r.durationMs).toBeGreaterThanOrEqual(0);
});

it('does not follow a redirect: a failure naming it', async () => {
  const r = await sender.send(message('/redirect'));
  expect(r).toMatchObject({ succeeded: false, gone: false, responseCode: 302 });
  expect(r.error).toMatch(/redirect to http:\/\/127\.0\.0\.1:1\/x not followed/);
  expect(seen.filter((u) => u === '/x')).toEqual([]);
});

it('gives up after the timeout', async () => {
  const r = await sender.send(message('/slow'));
  expect(r).toMatchObject({ succeeded: false, responseCode: null });
  expect(r.error).toMatch(/timeout after 300 ms/);
  expect(r.durationMs).toBeLessThan(1500);
});

it('keeps only an excerpt of a failing answer', async () => {
  const r = await sender.send(message('/big'));
  expect(r).toMatchObject({ succeeded: false, responseCode: 500 });
  expect(r.error!.length).toBeLessThanOrEqual(320);
});

it('sends headers the receiver verifies with the secret (standardwebhooks)', async () => {
  const m = message('/echo');
  expect((await sender.send(m)).succeeded).toBe(true);
  const got = received.at(-1)!;
  expect(got.headers['webhook-id']).toBe(m.id);
  expect(got.headers['content-type']).toBe('application/json');
  const payload = new Webhook(secret).verify(got.body, {
    'webhook-id': got.headers['webhook-id'] as string,
    'webhook-timestamp': got.headers['webhook-timestamp'] as string,
    'webhook-signature': got.headers['webhook-signature'] as string,
  });
  expect(payload).toMatchObject({ type: 'person.created' });
  expect(() =>
    new Webhook(newSecret()).verify(got.body, got.headers as Record<string, string>),
  ).toThrow();
});
