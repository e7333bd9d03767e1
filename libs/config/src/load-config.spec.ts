import { ConfigError, loadConfig } from './load-config';
import { ServiceConfig } from './service-config';

const base = { PORT: '3001', DATABASE_URL: 'postgresql://u@h:5432/db' };

describe('loadConfig', () => {
  it('converts and defaults values', () => {
    const c = loadConfig(ServiceConfig, { ...base, LOG_REQUESTS: 'true' });
    expect(c.PORT).toBe(3001);
    expect(c.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(c.NATS_REQUEST_TIMEOUT_MS).toBe(3000);
    expect(c.LOG_REQUESTS).toBe(true);
  });

  it('converts numbers given in the environment, also in a subclass', () => {
    class Sub extends ServiceConfig {
      override PORT: number = 3001;
    }
    const c = loadConfig(Sub, { ...base, NATS_REQUEST_TIMEOUT_MS: '500', DATABASE_POOL_SIZE: '4' });
    expect(c).toMatchObject({ PORT: 3001, NATS_REQUEST_TIMEOUT_MS: 500, DATABASE_POOL_SIZE: 4 });
    expect(loadConfig(Sub, { DATABASE_URL: base.DATABASE_URL }).PORT).toBe(3001);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig(ServiceConfig, { ...base, PORT: 'eighty' })).toThrow(
      /environment variable PORT is "eighty"/,
    );
    expect(() => loadConfig(ServiceConfig, { ...base, DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL .*postgres/,
    );
  });

  it('names a missing required variable', () => {
    try {
      loadConfig(ServiceConfig, { PORT: '1' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.join()).toMatch(/DATABASE_URL is not set/);
    }
  });
});
