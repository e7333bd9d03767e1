// Credentials of the local stack: ADMIN_TOKEN, INTERNAL_TOKEN, SECRETS_KEY and the demo tenant's
// API key come from the environment, else from .data/dev-secrets.json, else are generated once and
// written there, so every restart prints the same ones and `npm run admin` finds the token.
// SECRETS_KEY seals the webhook secrets and signing keys in the databases of .data/postgres: keep
// the file as long as that database (a new key could not open what the old one sealed). The internal
// token is kept too (not drawn anew per start): a service or the gateway restarted by hand
// (`node dist/apps/crm-people/src/main.js` while debugging) and a direct call with curl can read
// it from the same file, and a stack restarted halfway keeps agreeing with itself.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ADMIN_TOKEN_MIN = 16;
export const INTERNAL_TOKEN_MIN = 16;
export const API_KEY_PATTERN = /^[A-Za-z0-9_-]{24,200}$/;
/** SECRETS_KEY: keyId:base64-of-32-bytes entries, comma-separated (@crm/secrets checks it fully). */
export const SECRETS_KEY_PATTERN =
  /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/_-]{43}=?(\s*,\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/_-]{43}=?)*$/;

export const generateAdminToken = () => randomBytes(24).toString('base64url');
export const generateApiKey = () => `demo_${randomBytes(24).toString('base64url')}`;
export const generateInternalToken = () => randomBytes(24).toString('base64url');
export const generateSecretsKey = () => `local1:${randomBytes(32).toString('base64')}`;

/** The stored secrets, {} when the file does not exist; a broken file is an error naming it. */
export function readSecrets(file) {
  if (!existsSync(file)) return {};
  try {
    const value = JSON.parse(readFileSync(file, 'utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new Error(
    `${file} is not a JSON object: fix or delete it (new secrets are then generated)`,
  );
}

/** Writes the secrets readable by the owner only. */
export function writeSecrets(file, secrets) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Checks the values the gateway would reject later, with a message naming the variable. */
export function validateSecrets({ adminToken, demoApiKey, internalToken, secretsKey }) {
  const problems = [];
  if (adminToken.length < ADMIN_TOKEN_MIN)
    problems.push(`ADMIN_TOKEN must have at least ${ADMIN_TOKEN_MIN} characters`);
  if (internalToken.length < INTERNAL_TOKEN_MIN)
    problems.push(`INTERNAL_TOKEN must have at least ${INTERNAL_TOKEN_MIN} characters`);
  if (!API_KEY_PATTERN.test(demoApiKey))
    problems.push('DEMO_API_KEY must be 24-200 characters of A-Z, a-z, 0-9, _ and -');
  if (secretsKey !== undefined && !SECRETS_KEY_PATTERN.test(secretsKey))
    problems.push('SECRETS_KEY must be keyId:base64-of-32-bytes entries, comma-separated');
  return problems;
}

/**
 * The secrets to use: environment first, then `stored`, then freshly generated. `changed` says
 * whether they differ from `stored` (the file then needs writing).
 */
export function resolveSecrets(
  stored,
  env,
  generate = {
    adminToken: generateAdminToken,
    apiKey: generateApiKey,
    internalToken: generateInternalToken,
  },
) {
  const secrets = {
    adminToken: env.ADMIN_TOKEN || stored.adminToken || generate.adminToken(),
    demoApiKey: env.DEMO_API_KEY || stored.demoApiKey || generate.apiKey(),
    internalToken: env.INTERNAL_TOKEN || stored.internalToken || generate.internalToken(),
    secretsKey:
      env.SECRETS_KEY || stored.secretsKey || (generate.secretsKey ?? generateSecretsKey)(),
  };
  const changed = Object.keys(secrets).some((k) => secrets[k] !== stored[k]);
  return { secrets: { ...stored, ...secrets }, changed };
}

/** resolveSecrets + validation + writing the file when something changed. */
export function loadDevSecrets(file, env = process.env) {
  const { secrets, changed } = resolveSecrets(readSecrets(file), env);
  const problems = validateSecrets(secrets);
  if (problems.length) throw new Error(problems.join('; '));
  if (changed) writeSecrets(file, secrets);
  return secrets;
}
