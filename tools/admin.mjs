#!/usr/bin/env node
// Operator commands against the gateway's admin API: `npm run admin -- --help`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_USAGE, createAdminClient, parseAdminArgs } from './dev/admin-client.mjs';
import { readSecrets } from './dev/secrets.mjs';
import { ROOT } from './dev/workspace.mjs';

const SECRETS_FILE = path.join(ROOT, '.data', 'dev-secrets.json');

function fail(message) {
  console.error(`admin: ${message}`);
  process.exit(1);
}

async function main() {
  let request;
  try {
    request = parseAdminArgs(process.argv.slice(2));
  } catch (err) {
    fail(err.message);
  }
  if (request.help) {
    console.log(ADMIN_USAGE);
    return;
  }
  let token = process.env.ADMIN_TOKEN;
  // inside a compose or Kubernetes container the token is a file (ADMIN_TOKEN_FILE)
  if (!token && process.env.ADMIN_TOKEN_FILE) {
    try {
      token = readFileSync(process.env.ADMIN_TOKEN_FILE, 'utf8').trim();
    } catch (err) {
      fail(`ADMIN_TOKEN_FILE ${process.env.ADMIN_TOKEN_FILE} cannot be read: ${err.code ?? err}`);
    }
  }
  if (!token) {
    try {
      token = readSecrets(SECRETS_FILE).adminToken;
    } catch (err) {
      fail(err.message);
    }
  }
  if (!token)
    fail(`set ADMIN_TOKEN (no ${path.relative(ROOT, SECRETS_FILE)} from npm start found)`);
  const client = createAdminClient({
    baseUrl: process.env.GATEWAY_URL || `http://127.0.0.1:${process.env.PORT || 3000}`,
    token,
  });
  try {
    const data = await client.call(request.method, request.path, request.body);
    console.log(JSON.stringify(data ?? null, null, 2));
  } catch (err) {
    fail(err.message);
  }
}

main().catch((err) => fail(err?.stack ?? String(err)));
