import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The GraphQL IDE for browsers at `GET /graphql`: GraphiQL (npm `graphiql` 3, the last major that
 * ships a ready browser bundle; 4 and 5 are ES modules for a bundler) on React 18 (its UMD
 * builds), every asset served by the gateway from node_modules, nothing from a CDN. A small form
 * above it takes what the gateway requires (tenant, integration name and provider, API key,
 * language) and writes them into GraphiQL's request headers; the operations it runs are ordinary
 * `POST /graphql` requests with every check of any other caller.
 *
 * Only a GET without a query string is the IDE: `GET /graphql?query=...` answers as before (the
 * gateway runs operations from POST bodies only).
 */
export const IDE_ASSET_PREFIX = '/graphql/ide/';

/**
 * The packages' folders. Literal `require.resolve`s: tools/image/app-files.mjs finds them in the
 * compiled code, so the gateway's image carries these packages (their `exports` do not list the
 * browser bundles, their package.json they do).
 */
const PACKAGE_DIRS: Record<string, () => string> = {
  react: () => path.dirname(require.resolve('react/package.json')),
  'react-dom': () => path.dirname(require.resolve('react-dom/package.json')),
  graphiql: () => path.dirname(require.resolve('graphiql/package.json')),
};

/** A file of one of the page's packages. */
export function packageFile(pkg: string, file: string): string {
  return path.join(PACKAGE_DIRS[pkg](), file);
}

/** The files of the page, by the name it asks for them: nothing else is served. */
const ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'react.production.min.js': {
    pkg: 'react',
    file: 'umd/react.production.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'react-dom.production.min.js': {
    pkg: 'react-dom',
    file: 'umd/react-dom.production.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'graphiql.min.js': {
    pkg: 'graphiql',
    file: 'graphiql.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'graphiql.min.css': {
    pkg: 'graphiql',
    file: 'graphiql.min.css',
    type: 'text/css; charset=utf-8',
  },
};

/** The assets the page loads, in order (the e2e test fetches each). */
export const IDE_ASSETS = [...Object.keys(ASSETS), 'ide.js', 'ide.css'];

/** Long enough for a session, short enough that an upgraded package is picked up the next day. */
const ASSET_CACHE = 'public, max-age=3600';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL IDE - CRM API</title>
<link rel="stylesheet" href="${IDE_ASSET_PREFIX}graphiql.min.css">
<link rel="stylesheet" href="${IDE_ASSET_PREFIX}ide.css">
</head>
<body>
<form id="headers" autocomplete="on">
  <label>Tenant (X-Service-TenantId) <input name="tenant" required></label>
  <label>API key <input name="key" type="password" autocomplete="off"></label>
  <label>X-Integration-Name <input name="integrationName" required></label>
  <label>X-Integration-Provider <input name="integrationProvider" required></label>
  <label>Accept-Language <select name="language"><option>en</option><option>de</option></select></label>
  <button type="submit">Use these headers</button>
</form>
<div id="graphiql">Loading the GraphQL IDE...</div>
<script src="${IDE_ASSET_PREFIX}react.production.min.js"></script>
<script src="${IDE_ASSET_PREFIX}react-dom.production.min.js"></script>
<script src="${IDE_ASSET_PREFIX}graphiql.min.js"></script>
<script src="${IDE_ASSET_PREFIX}ide.js"></script>
</body>
</html>
`;

const STYLE = `html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
#headers { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; padding: .5rem 1rem;
  border-bottom: 1px solid #ccc; font-size: .8rem; }
#headers label { display: flex; flex-direction: column; }
#graphiql { flex: 1; min-height: 0; }
`;

// The form's values live in the browser: the key in sessionStorage only (gone with the tab),
// the rest in localStorage. Submitting remounts GraphiQL with the headers filled in; its own
// header editor stays editable for anything else.
const SCRIPT = `(function () {
  var form = document.getElementById('headers');
  var KEY = 'crm-graphql-ide';
  var saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY) || '{}'); } catch (e) { saved = {}; }
  var defaults = { integrationName: 'graphiql', integrationProvider: 'browser', language: 'en' };
  ['tenant', 'integrationName', 'integrationProvider', 'language'].forEach(function (n) {
    form.elements[n].value = saved[n] || defaults[n] || '';
  });
  form.elements.key.value = sessionStorage.getItem(KEY + '-key') || '';
  var post = GraphiQL.createFetcher({ url: '/graphql' });
  // Before the form is filled in, say so instead of sending requests the gateway must refuse.
  function fetcher(params, options) {
    var h = (options && options.headers) || {};
    if (!h['X-Service-TenantId']) {
      return Promise.resolve({ errors: [{ message: 'Fill in the tenant and the API key above, then "Use these headers".' }] });
    }
    return post(params, options);
  }
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var generation = 0;
  function headers() {
    var v = function (n) { return form.elements[n].value.trim(); };
    var h = {
      'X-Service-TenantId': v('tenant'),
      'X-Integration-Name': v('integrationName'),
      'X-Integration-Provider': v('integrationProvider'),
      'Accept-Language': v('language')
    };
    if (v('key')) h.Authorization = 'Bearer ' + v('key');
    return JSON.stringify(h, null, 2);
  }
  function render() {
    generation += 1;
    root.render(React.createElement(GraphiQL, {
      key: generation,
      fetcher: fetcher,
      headers: headers(),
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers'
    }));
  }
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    localStorage.setItem(KEY, JSON.stringify({
      tenant: form.elements.tenant.value.trim(),
      integrationName: form.elements.integrationName.value.trim(),
      integrationProvider: form.elements.integrationProvider.value.trim(),
      language: form.elements.language.value
    }));
    sessionStorage.setItem(KEY + '-key', form.elements.key.value.trim());
    render();
  });
  render();
})();
`;

const OWN: Record<string, { body: string; type: string }> = {
  'ide.js': { body: SCRIPT, type: 'text/javascript; charset=utf-8' },
  'ide.css': { body: STYLE, type: 'text/css; charset=utf-8' },
};

/** Whether the IDE is served: GRAPHQL_IDE, unset: on except with NODE_ENV=production. */
export function graphqlIdeEnabled(config: { NODE_ENV?: string; GRAPHQL_IDE?: boolean }): boolean {
  return config.GRAPHQL_IDE ?? config.NODE_ENV !== 'production';
}

/**
 * Registers the page and its assets, in a scope of their own: none of /graphql's checks (a
 * browser opening the page has no headers to send), and POST /graphql untouched.
 */
export function registerGraphqlIde(scope: FastifyInstance): void {
  scope.get('/graphql', (req: FastifyRequest, reply: FastifyReply) => {
    // With a query string this is not a browser opening the IDE: the answer it always had.
    if (req.url.includes('?')) return reply.callNotFound();
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(PAGE);
  });
  scope.get(
    `${IDE_ASSET_PREFIX}:file`,
    async (req: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
      const name = req.params.file;
      const own = Object.hasOwn(OWN, name) ? OWN[name] : undefined;
      if (own) return sendAsset(reply, own.type).send(own.body);
      const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!asset) return reply.callNotFound();
      const file = packageFile(asset.pkg, asset.file);
      const { size } = await stat(file);
      return sendAsset(reply, asset.type)
        .header('content-length', size)
        .send(createReadStream(file));
    },
  );
}

function sendAsset(reply: FastifyReply, type: string): FastifyReply {
  return reply
    .header('content-type', type)
    .header('cache-control', ASSET_CACHE)
    .header('x-content-type-options', 'nosniff');
}
