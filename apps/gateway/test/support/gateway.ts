import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '@crm/config';
import { freePort, NATS_TEST_URL } from '@crm/testing';
import { GatewayConfig } from '../../src/config';
import { createGatewayApp } from '../../src/gateway.app';
import type { UpstreamLookup } from '../../src/routing/replicas';

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
export const INTERNAL_TOKEN = 'internal-token-for-tests-0123456789';

export interface RunningGateway {
  app: INestApplication;
  url: string;
  config: GatewayConfig;
}

/**
 * Boots the gateway in-process on a free port, against real NATS and the given services;
 * `lookup` resolves the services' host names (a name mapped to loopback addresses as replicas).
 */
export async function bootGateway(
  env: Record<string, string> = {},
  options: { lookup?: UpstreamLookup } = {},
): Promise<RunningGateway> {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const port = await freePort();
  const config = loadConfig(GatewayConfig, {
    NODE_ENV: 'test',
    PORT: String(port),
    NATS_URL: NATS_TEST_URL,
    NATS_REQUEST_TIMEOUT_MS: '5000', // a busy CI machine (2 jest workers, a stressed core) took over 1 s
    ADMIN_TOKEN,
    INTERNAL_TOKEN,
    SUPERGRAPH_RETRY_MS: '200',
    // alone unless a test makes replicas of one group: gateways of other tests on the same NATS
    // would otherwise share its rate limits
    RATE_LIMIT_GROUP: `test-${randomUUID()}`,
    ...env,
  });
  const app = await createGatewayApp(config, options);
  await app.listen(port, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${port}`, config };
}

/** Retries `check` until it passes or `ms` elapse. */
export async function eventually(check: () => Promise<void>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A port nothing listens on (a service that is down). */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** The parsed JSON body of an answer, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function json(res: Response): Promise<any> {
  return res.json();
}
