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

export function serviceEnv({ env = process.env, port, databaseUrl, natsUrl }) {
  return { ...common(env, natsUrl), PORT: String(port), DATABASE_URL: databaseUrl };
}

/**
 * The gateway: where each service listens (`CRM_PEOPLE_URL`...), which of them serve GraphQL,
 * and the admin token. INTERNAL_TOKEN and KEY_CACHE_TTL_MS pass through from `env` when set.
 */
export function gatewayEnv({
  env = process.env,
  port,
  natsUrl,
  adminToken,
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
    GRAPHQL_SUBGRAPHS: subgraphs.join(','),
  };
}
