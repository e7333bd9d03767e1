import { ConfigError, loadConfig } from '@crm/config';
import { GatewayConfig, serviceUrl } from './config';

const ADMIN_TOKEN = 'a-long-enough-admin-token';
// 32 random characters each, as `npm start` and compose generate them
const RANDOM_ADMIN = 'h7Qe2Lk9ZxW4pR1vBn6Ys3Tc8Mu0JdFa';
const RANDOM_INTERNAL = 'Vq3x8KpL2mZt9RwYc4NbFh6JdGs1AeU0';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(GatewayConfig, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('GatewayConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig(GatewayConfig, { ADMIN_TOKEN });
    expect(c).toMatchObject({
      PORT: 3000,
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_REQUEST_TIMEOUT_MS: 3000,
      KEY_CACHE_TTL_MS: 5000,
      CRM_PEOPLE_URL: 'http://127.0.0.1:3001',
      CRM_COMPANIES_URL: 'http://127.0.0.1:3002',
      EVENTS_URL: 'http://127.0.0.1:3003',
      BOOKINGS_INVITATIONS_URL: 'http://127.0.0.1:3004',
      TENANT_INFO_URL: 'http://127.0.0.1:3005',
      GRAPHQL_SUBGRAPHS: [
        'crm-people',
        'crm-companies',
        'events',
        'bookings-invitations',
        'tenant-info',
      ],
    });
    expect(c.INTERNAL_TOKEN).toBeUndefined();
    expect(c.HOST).toBe('0.0.0.0');
  });

  it('refuses to start in production without INTERNAL_TOKEN, naming it', () => {
    expect(problems({ ADMIN_TOKEN: RANDOM_ADMIN, NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(
        /^environment variable INTERNAL_TOKEN is not set: must be set when NODE_ENV=production/,
      ),
    ]);
    expect(
      problems({
        ADMIN_TOKEN: RANDOM_ADMIN,
        NODE_ENV: 'production',
        INTERNAL_TOKEN: RANDOM_INTERNAL,
      }),
    ).toEqual([]);
  });

  it('refuses in production the admin token compose used to default to, a short or a repetitive one', () => {
    for (const token of ['compose-admin-token-change-me', 'x'.repeat(16), 'a1'.repeat(20)])
      expect(
        problems({ ADMIN_TOKEN: token, NODE_ENV: 'production', INTERNAL_TOKEN: RANDOM_INTERNAL }),
      ).toEqual([
        expect.stringMatching(
          /^environment variable ADMIN_TOKEN is set \(\d+ characters, not shown\): /,
        ),
      ]);
    // the same values stay usable in development (tests and `npm start` pick their own)
    expect(problems({ ADMIN_TOKEN: 'compose-admin-token-change-me' })).toEqual([]);
  });

  it('reads numbers, URLs (trailing slash dropped) and the subgraph list from the environment', () => {
    const c = loadConfig(GatewayConfig, {
      ADMIN_TOKEN,
      PORT: '8080',
      KEY_CACHE_TTL_MS: '0',
      NATS_REQUEST_TIMEOUT_MS: '750',
      EVENTS_URL: 'http://events:3003/',
      GRAPHQL_SUBGRAPHS: ' crm-people, events ,',
      INTERNAL_TOKEN: 'secret',
      HOST: '127.0.0.1',
    });
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.PORT).toBe(8080);
    expect(c.KEY_CACHE_TTL_MS).toBe(0);
    expect(c.NATS_REQUEST_TIMEOUT_MS).toBe(750);
    expect(serviceUrl(c, 'events')).toBe('http://events:3003');
    expect(c.GRAPHQL_SUBGRAPHS).toEqual(['crm-people', 'events']);
    expect(c.INTERNAL_TOKEN).toBe('secret');
  });

  it('accepts cluster-internal service names as hosts', () => {
    const c = loadConfig(GatewayConfig, {
      ADMIN_TOKEN,
      CRM_PEOPLE_URL: 'http://crm-people',
      TENANT_INFO_URL: 'http://tenant-info:3000',
      BOOKINGS_INVITATIONS_URL: 'https://bookings-invitations.crm.svc.cluster.local:8443',
    });
    expect(c.CRM_PEOPLE_URL).toBe('http://crm-people');
    expect(c.TENANT_INFO_URL).toBe('http://tenant-info:3000');
  });

  it('requires ADMIN_TOKEN of at least 16 characters', () => {
    expect(problems({}).join()).toContain('ADMIN_TOKEN is not set');
    expect(problems({ ADMIN_TOKEN: 'short' }).join()).toContain('ADMIN_TOKEN');
    expect(problems({ ADMIN_TOKEN: 'x'.repeat(16) })).toEqual([]);
  });

  it('names the variable of a bad value', () => {
    expect(problems({ ADMIN_TOKEN, GRAPHQL_SUBGRAPHS: 'crm-people,billing' }).join()).toContain(
      'GRAPHQL_SUBGRAPHS',
    );
    expect(problems({ ADMIN_TOKEN, CRM_PEOPLE_URL: 'localhost:3001' }).join()).toContain(
      'CRM_PEOPLE_URL',
    );
    expect(problems({ ADMIN_TOKEN, PORT: 'eighty' }).join()).toContain('PORT');
    expect(problems({ ADMIN_TOKEN, NATS_URL: 'http://x' }).join()).toContain('NATS_URL');
  });
});
