#!/usr/bin/env node
// The compose stack's secrets, made on its first start: `node tools/compose/init-secrets.mjs <dir>`
// writes <dir>/admin-token and <dir>/internal-token (24 random bytes each, 32 characters) unless
// they exist, readable by their owner only. The apps read them through ADMIN_TOKEN_FILE and
// INTERNAL_TOKEN_FILE, so no token is written in docker-compose.yml, and production mode, which
// refuses default and short secrets, runs without anyone choosing one. ADMIN_TOKEN or
// INTERNAL_TOKEN set in the environment (or .env) are written instead when the file is new.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node tools/compose/init-secrets.mjs <dir>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
for (const [file, variable] of [
  ['admin-token', 'ADMIN_TOKEN'],
  ['internal-token', 'INTERNAL_TOKEN'],
]) {
  const target = path.join(dir, file);
  if (existsSync(target)) {
    console.log(`init-secrets: ${file} kept`);
    continue;
  }
  const value = process.env[variable] || randomBytes(24).toString('base64url');
  writeFileSync(target, `${value}\n`, { mode: 0o400, flag: 'wx' });
  console.log(`init-secrets: ${file} ${process.env[variable] ? `from ${variable}` : 'generated'}`);
}
