// The gateway's admin API (API.md "Administration"), used by `npm run admin` and by the launcher
// to create the demo tenant. Answers are the envelope { data, message, metaData, statusCode }.

export class AdminApiError extends Error {
  constructor(status, message, body) {
    super(status ? `HTTP ${status}: ${message}` : message);
    this.name = 'AdminApiError';
    this.status = status;
    this.body = body;
  }
}

export function createAdminClient({ baseUrl, token, timeoutMs = 15_000 }) {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    /** The envelope's `data`; an AdminApiError for any status other than 2xx. */
    async call(method, path, body) {
      let res;
      try {
        res = await fetch(`${base}/v1/admin${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const reason = err?.cause?.code ?? err?.message ?? String(err);
        throw new AdminApiError(0, `cannot reach the gateway at ${base} (${reason})`);
      }
      const text = await res.text();
      let payload;
      try {
        payload = text ? JSON.parse(text) : undefined;
      } catch {
        payload = undefined;
      }
      if (!res.ok) {
        const details = Array.isArray(payload?.errors)
          ? payload.errors.map((e) => `${e.field}: ${e.message}`).join('; ')
          : '';
        const message = payload?.message ?? (text.slice(0, 300) || res.statusText);
        throw new AdminApiError(res.status, details ? `${message} (${details})` : message, payload);
      }
      return payload && typeof payload === 'object' && 'data' in payload ? payload.data : payload;
    },
  };
}

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [arguments]

Commands (the gateway's admin API, /v1/admin):
  create-tenant <id> <name> [--email <e-mail>]   create a tenant
  issue-key <tenantId> <name> [--key <key>] [--scopes <s,...>] [--expires <ISO>]
                                                 issue an API key (printed once; --key fixes it);
                                                 --scopes limits it, e.g. crm:read,events:write
                                                 (<module>:read|write, write includes read; every
                                                 scope when absent); --expires: when it stops
                                                 working, e.g. 2027-01-01T00:00:00Z (never if absent)
  revoke-key <keyId>                             revoke an API key
  tariffs                                        list the tariffs with their modules
  set-tariff <tenantId> <tariffId>               put a tenant on a tariff (e.g. complete)

Environment:
  GATEWAY_URL       the gateway (default http://127.0.0.1:$PORT, PORT defaulting to 3000)
  ADMIN_TOKEN       the operator token (default: the one npm start keeps in .data/dev-secrets.json)
  ADMIN_TOKEN_FILE  a file holding it (as in the compose gateway container)

Prints the answer's data as JSON; errors go to stderr with exit code 1.`;

const VERBS = {
  'create-tenant': { args: ['id', 'name'], options: ['email'] },
  'issue-key': { args: ['tenantId', 'name'], options: ['key', 'scopes', 'expires'] },
  'revoke-key': { args: ['keyId'], options: [] },
  tariffs: { args: [], options: [] },
  'set-tariff': { args: ['tenantId', 'tariffId'], options: [] },
};

/**
 * Turns the command line into the request to send: { method, path, body }, or { help: true }.
 * Throws an Error with a message for the user on a wrong command line.
 */
export function parseAdminArgs(argv) {
  if (!argv.length || argv.some((a) => a === '--help' || a === '-h')) return { help: true };
  const [verb, ...rest] = argv;
  const spec = VERBS[verb];
  if (!spec) throw new Error(`unknown command "${verb}" (see --help)`);
  const positional = [];
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (!spec.options.includes(name)) throw new Error(`${verb}: unknown option --${name}`);
      const value = inline ?? rest[++i];
      if (value === undefined || value === '') throw new Error(`${verb}: --${name} needs a value`);
      options[name] = value;
    } else positional.push(a);
  }
  if (positional.length !== spec.args.length)
    throw new Error(
      `${verb} takes ${spec.args.length ? spec.args.map((a) => `<${a}>`).join(' ') : 'no arguments'}` +
        ` (got ${positional.length})`,
    );
  const p = Object.fromEntries(spec.args.map((name, i) => [name, positional[i]]));
  const seg = (v) => encodeURIComponent(v);
  switch (verb) {
    case 'create-tenant':
      return {
        method: 'POST',
        path: '/tenants',
        body: { id: p.id, name: p.name, contact: options.email ? { email: options.email } : {} },
      };
    case 'issue-key':
      return {
        method: 'POST',
        path: `/tenants/${seg(p.tenantId)}/api-keys`,
        body: {
          name: p.name,
          ...(options.key ? { key: options.key } : {}),
          // The gateway checks each scope and names a wrong one (scopes[1]): sent as given.
          ...(options.scopes ? { scopes: options.scopes.split(',').map((x) => x.trim()) } : {}),
          ...(options.expires ? { expiresAt: options.expires } : {}),
        },
      };
    case 'revoke-key':
      return { method: 'DELETE', path: `/api-keys/${seg(p.keyId)}` };
    case 'tariffs':
      return { method: 'GET', path: '/tariffs' };
    case 'set-tariff':
      return {
        method: 'PUT',
        path: `/tenants/${seg(p.tenantId)}/tariff`,
        body: { tariffId: p.tariffId },
      };
  }
  throw new Error(`unhandled command ${verb}`);
}

const CONFLICT = 409;
async function acceptConflict(promise) {
  try {
    return { created: true, data: await promise };
  } catch (err) {
    if (err instanceof AdminApiError && err.status === CONFLICT) return { created: false };
    throw err;
  }
}

/**
 * Creates the demo tenant on tariff `tariffId` with the API key `apiKey`. Safe to repeat: a tenant
 * or key that exists (409) is kept as it is.
 */
export async function seedDemoTenant(client, { tenantId, name, apiKey, tariffId = 'complete' }) {
  const tenant = await acceptConflict(
    client.call('POST', '/tenants', {
      id: tenantId,
      name,
      contact: { companyName: name, email: `${tenantId}@example.com` },
    }),
  );
  await client.call('PUT', `/tenants/${encodeURIComponent(tenantId)}/tariff`, { tariffId });
  const key = await acceptConflict(
    client.call('POST', `/tenants/${encodeURIComponent(tenantId)}/api-keys`, {
      name: 'demo key (npm start)',
      key: apiKey,
    }),
  );
  return { tenantCreated: tenant.created, keyCreated: key.created };
}
