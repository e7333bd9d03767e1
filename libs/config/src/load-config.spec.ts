import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';
import { ConfigError, loadConfig } from './load-config';
import { ServiceConfig, shutdownDrainMs, toBool } from './service-config';

const base = { PORT: '3001', DATABASE_URL: 'postgresql://u@h:5432/db' };

describe('loadConfig', () => {
  it('converts and defaults values', () => {
    const c = loadConfig(ServiceConfig, { ...base, LOG_REQUESTS: 'true' });
    expect(c.PORT).toBe(3001);
    expect(c.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(c.NATS_REQUEST_TIMEOUT_MS).toBe(3000);
    expect(c.LOG_REQUESTS).toBe(true);
  });

  it('reads false, 0, no and off as false (not as a non-empty string); refuses other text', () => {
    for (const text of ['false', 'FALSE', '0', 'no', 'off'])
      expect(loadConfig(ServiceConfig, { ...base, LOG_REQUESTS: text }).LOG_REQUESTS).toBe(false);
    for (const text of ['1', 'Yes', 'on'])
      expect(loadConfig(ServiceConfig, { ...base, LOG_REQUESTS: text }).LOG_REQUESTS).toBe(true);
    expect(() => loadConfig(ServiceConfig, { ...base, LOG_REQUESTS: 'maybe' })).toThrow(
      /LOG_REQUESTS/,
    );
  });

  it('switches a default-on setting off by its variable', () => {
    class WithWorker extends ServiceConfig {
      @Transform(toBool)
      @IsBoolean()
      WORKER_ENABLED: boolean = true;
    }
    expect(loadConfig(WithWorker, base).WORKER_ENABLED).toBe(true);
    expect(loadConfig(WithWorker, { ...base, WORKER_ENABLED: 'false' }).WORKER_ENABLED).toBe(false);
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

  it('listens on every interface unless HOST says otherwise', () => {
    expect(loadConfig(ServiceConfig, base).HOST).toBe('0.0.0.0');
    expect(loadConfig(ServiceConfig, { ...base, HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
  });
});

describe('INTERNAL_TOKEN', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(ServiceConfig, { ...base, ...env });
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
  };

  it('is optional in development and tests', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ NODE_ENV: 'test' })).toEqual([]);
    expect(problems({ NODE_ENV: 'development', INTERNAL_TOKEN: 'short' })).toEqual([]);
  });

  const random = 'Vq3x8KpL2mZt9RwYc4NbFh6JdGs1AeU0'; // 32 characters, as generated

  it('is required with NODE_ENV=production, and the message names the variable', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'environment variable INTERNAL_TOKEN is not set: must be set when NODE_ENV=production (the gateway sends it to every service in X-Internal-Token; services refuse calls without it; generate one with `openssl rand -base64 24`)',
    ]);
    // an empty value is no value (loadConfig drops it)
    expect(problems({ NODE_ENV: 'production', INTERNAL_TOKEN: '' })[0]).toMatch(
      /^environment variable INTERNAL_TOKEN is not set: must be set/,
    );
  });

  it('must be long enough in production, and its value is never shown', () => {
    const short = random.slice(0, 31);
    const [problem] = problems({ NODE_ENV: 'production', INTERNAL_TOKEN: short });
    expect(problem).toMatch(
      /^environment variable INTERNAL_TOKEN is set \(31 characters, not shown\): must be a secret of at least 32 characters/,
    );
    expect(problem).not.toContain(short);
    expect(problems({ NODE_ENV: 'production', INTERNAL_TOKEN: random })).toEqual([]);
  });

  it('refuses placeholders and repetitive values in production, not in development', () => {
    for (const value of [
      'compose-internal-token-change-me-0123456789',
      'replace-me-with-a-real-internal-token-please',
      'x'.repeat(40),
      'abababababababababababababababababab',
    ]) {
      expect(problems({ NODE_ENV: 'production', INTERNAL_TOKEN: value })).toHaveLength(1);
      expect(problems({ NODE_ENV: 'development', INTERNAL_TOKEN: value })).toEqual([]);
    }
  });
});

describe('NAME_FILE', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'config-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('reads a variable of the schema from the file its _FILE names, without the final newline', () => {
    const c = loadConfig(ServiceConfig, {
      ...base,
      INTERNAL_TOKEN_FILE: file('token', 'from-a-file-0123456789\n'),
    });
    expect(c.INTERNAL_TOKEN).toBe('from-a-file-0123456789');
  });

  it('lets the variable itself win over its file', () => {
    const c = loadConfig(ServiceConfig, {
      ...base,
      INTERNAL_TOKEN: 'from-the-environment',
      INTERNAL_TOKEN_FILE: file('other', 'from-a-file'),
    });
    expect(c.INTERNAL_TOKEN).toBe('from-the-environment');
  });

  it('names a file that cannot be read', () => {
    expect(() =>
      loadConfig(ServiceConfig, { ...base, INTERNAL_TOKEN_FILE: path.join(dir, 'missing') }),
    ).toThrow(
      /environment variable INTERNAL_TOKEN_FILE is ".*missing": the file cannot be read \(ENOENT\)/,
    );
  });
});

describe('shutdownDrainMs', () => {
  const t = { SHUTDOWN_TIMEOUT_MS: 10000 };
  it('reads SHUTDOWN_DRAIN_MS as a number, unset by default', () => {
    expect(
      loadConfig(ServiceConfig, { ...base, SHUTDOWN_DRAIN_MS: '1500' }).SHUTDOWN_DRAIN_MS,
    ).toBe(1500);
    expect(loadConfig(ServiceConfig, base).SHUTDOWN_DRAIN_MS).toBeUndefined();
  });

  it('drains 5 s in production and not at all elsewhere, unless SHUTDOWN_DRAIN_MS says', () => {
    expect(shutdownDrainMs({ ...t, NODE_ENV: 'production' })).toBe(5000);
    expect(shutdownDrainMs({ ...t, NODE_ENV: 'development' })).toBe(0);
    expect(shutdownDrainMs({ ...t, NODE_ENV: 'test' })).toBe(0);
    expect(shutdownDrainMs({ ...t, NODE_ENV: 'production', SHUTDOWN_DRAIN_MS: 0 })).toBe(0);
    expect(shutdownDrainMs({ ...t, NODE_ENV: 'test', SHUTDOWN_DRAIN_MS: 1500 })).toBe(1500);
  });
});
