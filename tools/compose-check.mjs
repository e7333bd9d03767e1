#!/usr/bin/env node
// `npm run compose:check`: validates docker-compose.yml where no Docker engine runs.
//  1. `docker-compose config -q` (Debian's 1.29) or `docker compose config -q`, when installed;
//  2. always: the project's own rules (tools/dev/compose-rules.mjs) on the parsed file.
//   node tools/compose-check.mjs [--file docker-compose.yml] [--no-docker]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkCompose } from './dev/compose-rules.mjs';
import { findExecutable } from './dev/processes.mjs';
import { ROOT } from './dev/workspace.mjs';

const args = process.argv.slice(2);
const fileIdx = args.indexOf('--file');
const file = path.resolve(fileIdx >= 0 ? args[fileIdx + 1] : path.join(ROOT, 'docker-compose.yml'));
const rel = path.relative(process.cwd(), file) || file;
let failed = false;

/** The compose command here: docker-compose (v1) or the docker CLI's compose plugin, or null. */
function composeCommand() {
  const v1 = findExecutable('docker-compose');
  if (v1) return [v1];
  const docker = findExecutable('docker');
  if (docker && spawnSync(docker, ['compose', 'version'], { stdio: 'ignore' }).status === 0)
    return [docker, 'compose'];
  return null;
}

if (!args.includes('--no-docker')) {
  const cmd = composeCommand();
  if (!cmd) console.log('compose-check: docker compose is not installed; project rules only');
  else {
    const r = spawnSync(cmd[0], [...cmd.slice(1), '-f', file, 'config', '-q'], {
      encoding: 'utf8',
      cwd: path.dirname(file),
    });
    const name = cmd.map((c) => path.basename(c)).join(' ');
    if (r.status === 0) console.log(`compose-check: ${name} config: ok`);
    else {
      failed = true;
      console.error(`compose-check: ${name} config failed:\n${r.stderr || r.stdout || r.error}`);
    }
  }
}

let yaml;
try {
  yaml = await import('js-yaml');
} catch {
  console.error(
    'compose-check: no YAML parser (js-yaml) in node_modules; add it to devDependencies',
  );
  process.exit(1);
}

let doc;
try {
  // Compose files use merge keys (`<<: *anchor`): js-yaml 5 reads them only when asked to.
  const schema = yaml.mergeTag ? yaml.CORE_SCHEMA.withTags(yaml.mergeTag) : yaml.DEFAULT_SCHEMA;
  doc = yaml.load(readFileSync(file, 'utf8'), { schema });
} catch (err) {
  console.error(`compose-check: ${rel} cannot be read: ${err.message}`);
  process.exit(1);
}
const problems = checkCompose(doc, { root: ROOT, composeDir: path.dirname(file) });
for (const p of problems) console.error(`compose-check: ${rel}: ${p}`);
if (!problems.length)
  console.log(`compose-check: ${rel}: ${Object.keys(doc.services).length} services, rules: ok`);
process.exit(failed || problems.length ? 1 : 0);
