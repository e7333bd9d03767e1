import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The supergraph the gateway serves is composed at build time (tools/supergraph.mjs) from the
// committed subgraph schemas; each service's own test keeps its schema.graphql equal to its code.
// This is CI's composition check: it fails when composition fails or the committed file is stale.

const ROOT = path.resolve(__dirname, '../../../..');
const SCRIPT = path.join(ROOT, 'tools/supergraph.mjs');
const SUPERGRAPH = 'apps/gateway/src/supergraph.graphql';
const SERVICES = ['crm-people', 'crm-companies', 'events', 'bookings-invitations', 'tenant-info'];

// Each case composes up to four times in a child process (about a second each on a busy machine).
jest.setTimeout(60000);

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

it('the committed supergraph is the composition of the committed subgraph schemas', () => {
  const { status, out } = run('--check');
  expect(out).toContain('is up to date');
  expect(status).toBe(0);
  const sdl = readFileSync(path.join(ROOT, SUPERGRAPH), 'utf8');
  for (const name of SERVICES) expect(sdl).toContain(`@join__graph(name: "${name}"`);
});

describe('on a copy of the schemas', () => {
  let dir: string;
  const file = (rel: string) => path.join(dir, rel);
  const tenantInfo = 'apps/tenant-info/src/schema.graphql';
  const edit = (rel: string, from: string | RegExp, to: string) => {
    const before = readFileSync(file(rel), 'utf8');
    const after = before.replace(from, to);
    expect(after).not.toBe(before);
    writeFileSync(file(rel), after);
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'supergraph-'));
    for (const rel of [...SERVICES.map((s) => `apps/${s}/src/schema.graphql`), SUPERGRAPH]) {
      mkdirSync(path.dirname(file(rel)), { recursive: true });
      cpSync(path.join(ROOT, rel), file(rel));
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a removed field or a changed type fails the check and is not written unless accepted', () => {
    edit(tenantInfo, /\s*"""TI2[^"]*"""\s*tenantTariff: Tariff!/, '');
    edit(
      tenantInfo,
      /type TariffFunction \{\n {2}key: String!/,
      'type TariffFunction {\n  key: Int!',
    );
    const committed = readFileSync(file(SUPERGRAPH), 'utf8');

    const checked = run('--check', '--root', dir);
    expect(checked.status).toBe(1);
    expect(checked.out).toContain('differs from a fresh composition');
    expect(checked.out).toContain('FIELD_REMOVED: Query.tenantTariff was removed.');
    expect(checked.out).toContain(
      'FIELD_CHANGED_KIND: TariffFunction.key changed type from String! to Int!.',
    );

    const refused = run('--root', dir);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('Not written');
    expect(readFileSync(file(SUPERGRAPH), 'utf8')).toBe(committed);

    const accepted = run('--root', dir, '--accept-breaking');
    expect(accepted.status).toBe(0);
    expect(readFileSync(file(SUPERGRAPH), 'utf8')).not.toContain('tenantTariff');
    expect(run('--check', '--root', dir).status).toBe(0);
  });

  it('an added field needs the file rewritten, without an acknowledgement', () => {
    edit(tenantInfo, 'type Tariff {\n', 'type Tariff {\n  label: String\n');
    const checked = run('--check', '--root', dir);
    expect(checked.status).toBe(1);
    expect(checked.out).not.toContain('breaking');
    expect(run('--root', dir).status).toBe(0);
    expect(readFileSync(file(SUPERGRAPH), 'utf8')).toMatch(/type Tariff[^}]*label: String/);
    expect(run('--check', '--root', dir).status).toBe(0);
  });

  it('a composition error fails it, naming the conflict', () => {
    // tenant-info claiming Query.company, which crm-companies owns with another type
    edit(tenantInfo, 'type Query {\n', 'type Query {\n  company(id: ID!): String\n');
    const checked = run('--check', '--root', dir);
    expect(checked.status).toBe(1);
    expect(checked.out).toContain(
      'composition of bookings-invitations, crm-companies, crm-people, events, tenant-info failed',
    );
    expect(checked.out).toContain('Query.company');
    expect(run('--root', dir).status).toBe(1);
  });
});
