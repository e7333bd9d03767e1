import { randomBytes } from 'node:crypto';
import { IsIn } from 'class-validator';
import { loadConfig } from '@crm/config';
import { DEV_SECRETS_KEY, parseSecretsKey, SecretsKeyRule, secretsKeyText } from './secrets-key';

class Config {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @SecretsKeyRule()
  SECRETS_KEY?: string;
}

const b64 = randomBytes(32).toString('base64');
const b64url = randomBytes(32).toString('base64url');

const problemOf = (env: Record<string, string>): string => {
  try {
    loadConfig(Config, env);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('parseSecretsKey', () => {
  it('reads comma-separated keyId:base64 entries, standard or url alphabet, the first first', () => {
    const keys = parseSecretsKey(` new:${b64url} , old-1:${b64},`);
    expect(keys.map((k) => k.keyId)).toEqual(['new', 'old-1']);
    expect(keys[0]!.key).toEqual(Buffer.from(b64url, 'base64url'));
    expect(keys[1]!.key).toEqual(Buffer.from(b64, 'base64'));
  });

  it.each([
    ['', 'holds no key'],
    [b64, 'entry 1 of 1 has no valid key id'],
    [`a b:${b64}`, 'entry 1 of 1 has no valid key id'],
    [`${'x'.repeat(33)}:${b64}`, 'has no valid key id'],
    [`k1:${b64},k1:${b64url}`, 'key id "k1" appears twice'],
    [
      `k1:${randomBytes(16).toString('base64')}`,
      'key "k1" is not the base64 of 32 bytes (16 bytes)',
    ],
    [`k1:${b64}!`, 'key "k1" is not the base64 of 32 bytes'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseSecretsKey(text)).toThrow(message);
  });
});

describe('SecretsKeyRule (loadConfig)', () => {
  it('outside production: unset uses the development key; a set one must be valid', () => {
    expect(problemOf({})).toBe('');
    expect(secretsKeyText(loadConfig(Config, {}))).toBe(DEV_SECRETS_KEY);
    expect(secretsKeyText(loadConfig(Config, { SECRETS_KEY: `k1:${b64}` }))).toBe(`k1:${b64}`);
    expect(problemOf({ NODE_ENV: 'test', SECRETS_KEY: 'k1:short' })).toContain(
      'environment variable SECRETS_KEY is set (8 characters, not shown): key "k1" is not the base64 of 32 bytes',
    );
  });

  it('with NODE_ENV=production refuses a missing, short, development or non-random key, never printing it', () => {
    const production = (v?: string) =>
      problemOf({ NODE_ENV: 'production', ...(v === undefined ? {} : { SECRETS_KEY: v }) });
    expect(production()).toContain(
      'environment variable SECRETS_KEY is not set: must be set when NODE_ENV=production',
    );
    const short = `k1:${randomBytes(24).toString('base64')}`;
    expect(production(short)).toContain('key "k1" is not the base64 of 32 bytes (24 bytes)');
    expect(production(short)).not.toContain(short.slice(3));
    expect(production(DEV_SECRETS_KEY)).toContain('key "dev" is the public development key');
    expect(production(`k2:${b64},${DEV_SECRETS_KEY}`)).toContain(
      'key "dev" is the public development key',
    );
    expect(production(`k1:${Buffer.alloc(32, 7).toString('base64')}`)).toContain(
      'key "k1" has fewer than 16 different bytes',
    );
    expect(production(`k2:${b64url},k1:${b64}`)).toBe('');
  });

  it('reads SECRETS_KEY_FILE as every secret may be given as a file', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'secrets-key-')), 'secrets-key');
    writeFileSync(file, `k1:${b64}\n`);
    const config = loadConfig(Config, { NODE_ENV: 'production', SECRETS_KEY_FILE: file });
    expect(config.SECRETS_KEY).toBe(`k1:${b64}`);
  });
});
