// The environment each app is started with by the launcher (the same names docker-compose.yml and
// deploy/ set; libs/config and each app's config.ts read them).
import { envPrefix } from './workspace.mjs';

/** Variables every app gets on top of the launcher's own environment. */
function common(env, natsUrl) {
  return {
    ...env,
    NODE_ENV: env.NODE_ENV || 'development',
    NATS_URL: natsUrl,
    APOLLO_TELEMETRY_DISABLED: 'true',
  };
}

/** Where `npm start` lets the services listen unless SERVICES_HOST says otherwise. */
export const SERVICES_HOST_DEFAULT = '127.0.0.1';

/**
 * A service: its port, database, NATS, the internal token (only the gateway's calls are served)
 * and the address to listen on: 127.0.0.1 unless SERVICES_HOST is set (clients reach the stack
 * through the gateway only). `secretsKey`: SECRETS_KEY, for the services that read it. `smtpUrl`: the development mailbox the launcher started, if any.
 * `role`: PROCESS_ROLE of a service that runs in several processes (workspace.mjs
 * WORKER_PROCESSES); `defaults`: variables of that process the launcher's environment may override.
 */
export function serviceEnv({
  env = process.env,
  port,
  databaseUrl,
  natsUrl,
  internalToken,
  secretsKey,
  smtpUrl,
  role,
  defaults = {},
}) {
  return {
    ...defaults,
    ...common(env, natsUrl),
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    HOST: env.SERVICES_HOST || SERVICES_HOST_DEFAULT,
    INTERNAL_TOKEN: internalToken,
    ...(secretsKey ? { SECRETS_KEY: secretsKey } : {}),
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    ...(role ? { PROCESS_ROLE: role } : {}),
  };
}

/**
 * The gateway: where each service listens (`CRM_PEOPLE_URL`...), which of them serve GraphQL,
 * the admin token and the internal token it sends to the services. It listens where its own
 * default says (every interface) unless HOST is set; KEY_CACHE_TTL_MS passes through from `env`.
 */
export function gatewayEnv({
  env = process.env,
  port,
  natsUrl,
  adminToken,
  internalToken,
  servicePorts,
  subgraphs,
}) {
  const urls = Object.fromEntries(
    Object.entries(servicePorts).map(([app, p]) => [
      `${envPrefix(app)}_URL`,
      `http://127.0.0.1:${p}`,
    ]),
  );
  const rest = { ...env };
  delete rest.DATABASE_URL; // the gateway has no database
  return {
    ...common(rest, natsUrl),
    ...urls,
    PORT: String(port),
    ADMIN_TOKEN: adminToken,
    INTERNAL_TOKEN: internalToken,
    GRAPHQL_SUBGRAPHS: subgraphs.join(','),
  };
}
