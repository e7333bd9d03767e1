import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The client's types are generated (tools/api-client.mjs) from the committed merged OpenAPI
// description, which apps/gateway-e2e/src/front-door.e2e-spec.ts keeps equal to what a running
// stack serves. This is CI's staleness check of the generated file, like the supergraph's.

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'tools/api-client.mjs');
const SOURCE = 'libs/api-client/openapi.json';
const OUT = 'libs/api-client/src/schema.ts';

// openapi-typescript reads 1 MB of description in a child process: seconds on a busy machine.
jest.setTimeout(60000);

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

it('the committed types are what the committed description gives', () => {
  const { status, out } = run('--check');
  expect(out).toContain('is current');
  expect(status).toBe(0);
  const types = readFileSync(path.join(ROOT, OUT), 'utf8');
  for (const p of ['/v1/crm/people/{id}', '/v1/crm/events', '/v1/crm/bookings/public'])
    expect(types).toContain(`"${p}": {`);
});

it('a changed description makes the check fail until the types are written again', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'api-client-'));
  try {
    const file = (rel: string) => path.join(dir, rel);
    for (const rel of [SOURCE, OUT]) {
      mkdirSync(path.dirname(file(rel)), { recursive: true });
      cpSync(path.join(ROOT, rel), file(rel));
    }
    const doc = JSON.parse(readFileSync(file(SOURCE), 'utf8'));
    doc.paths['/v1/crm/brand-new'] = {
      get: { operationId: 'BrandNew_get', responses: { '200': { description: 'ok' } } },
    };
    writeFileSync(file(SOURCE), JSON.stringify(doc));

    const stale = run('--check', '--root', dir);
    expect(stale.status).toBe(1);
    expect(stale.out).toContain(`${OUT} is stale`);
    expect(run('--root', dir).status).toBe(0);
    expect(readFileSync(file(OUT), 'utf8')).toContain('"/v1/crm/brand-new": {');
    expect(run('--check', '--root', dir).status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
