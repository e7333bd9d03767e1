#!/usr/bin/env node
// The compose stack's secrets, made on its first start: `node tools/compose/init-secrets.mjs <dir>`
// writes <dir>/admin-token and <dir>/internal-token (24 random bytes each, 32 characters) and
// <dir>/secrets-key (`k<date>:` and 32 random bytes in base64: the key that seals webhook secrets
// and signing keys in the databases) unless they exist, readable by their owner only. The apps
// read them through ADMIN_TOKEN_FILE, INTERNAL_TOKEN_FILE and SECRETS_KEY_FILE, so no secret is
// written in docker-compose.yml, and production mode, which refuses default and short secrets,
// runs without anyone choosing one. ADMIN_TOKEN, INTERNAL_TOKEN or SECRETS_KEY set in the
// environment (or .env) are written instead when the file is new.
//
// Rotating SECRETS_KEY (README "Secrets at rest"):
//   --rotate-secrets-key      puts a new key first in <dir>/secrets-key, keeping the others (they
//                             still open); restart events, events-worker, bookings-invitations and
//                             bookings-mail-worker: their start seals every stored secret anew
//   --retire-old-secrets-keys keeps only the first key, once every app has started with it
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [dir, action] = process.argv.slice(2);
if (!dir || (action && !['--rotate-secrets-key', '--retire-old-secrets-keys'].includes(action))) {
  console.error(
    'usage: node tools/compose/init-secrets.mjs <dir> [--rotate-secrets-key | --retire-old-secrets-keys]',
  );
  process.exit(2);
}

/** A new SECRETS_KEY entry; the id says when it was drawn (a second one that day gets a suffix). */
const newSecretsKey = (taken = []) => {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  let id = `k${day}`;
  for (let n = 2; taken.includes(id); n++) id = `k${day}-${n}`;
  return `${id}:${randomBytes(32).toString('base64')}`;
};

/** Rewrites an existing secret file (it is read-only for its owner). */
function rewrite(target, value) {
  chmodSync(target, 0o600);
  writeFileSync(target, `${value}\n`);
  chmodSync(target, 0o400);
}

if (action) {
  const target = path.join(dir, 'secrets-key');
  const keys = readFileSync(target, 'utf8')
    .trim()
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const ids = keys.map((k) => k.split(':')[0]);
  if (action === '--rotate-secrets-key') {
    const key = newSecretsKey(ids);
    rewrite(target, [key, ...keys].join(','));
    console.log(
      `init-secrets: secrets-key ${key.split(':')[0]} added first (kept: ${ids.join(', ')}); restart the apps that read SECRETS_KEY, then --retire-old-secrets-keys`,
    );
  } else {
    rewrite(target, keys[0]);
    console.log(
      `init-secrets: secrets-key keeps ${ids[0]} only (retired: ${ids.slice(1).join(', ') || 'none'})`,
    );
  }
  process.exit(0);
}

mkdirSync(dir, { recursive: true });
for (const [file, variable, generate] of [
  ['admin-token', 'ADMIN_TOKEN', () => randomBytes(24).toString('base64url')],
  ['internal-token', 'INTERNAL_TOKEN', () => randomBytes(24).toString('base64url')],
  ['secrets-key', 'SECRETS_KEY', () => newSecretsKey()],
]) {
  const target = path.join(dir, file);
  if (existsSync(target)) {
    console.log(`init-secrets: ${file} kept`);
    continue;
  }
  const value = process.env[variable] || generate();
  writeFileSync(target, `${value}\n`, { mode: 0o400, flag: 'wx' });
  console.log(`init-secrets: ${file} ${process.env[variable] ? `from ${variable}` : 'generated'}`);
}
