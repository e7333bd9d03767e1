import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './support/esm';

const run = promisify(execFile);
const services = readdirSync(path.join(ROOT, 'prisma')).filter((d) => {
  try {
    return readFileSync(path.join(ROOT, 'prisma', d, 'schema.prisma')).length > 0;
  } catch {
    return false;
  }
});

/** Every import of a generated file, e.g. `./internal/class`. */
const importsOf = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [
      ...readFileSync(path.join(dir, f), 'utf8').matchAll(/from ["'](\.{1,2}\/[^"']+)["']/g),
    ])
    .map((m) => m[1]);

// A Docker build runs `npm ci` (and so `prisma generate`) before the tsconfig files are in the
// image. Without a tsconfig Prisma writes imports ending in ".ts", which Node cannot load from the
// compiled client: every container crashed at start. The schemas fix the extension; generating in
// a folder with no tsconfig above it proves the output does not depend on one.
describe('generated Prisma clients', () => {
  it.each(services)(
    '%s imports its own files without an extension, with no tsconfig around',
    async (svc) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `prisma-gen-${svc}-`));
      try {
        const schema = readFileSync(
          path.join(ROOT, 'prisma', svc, 'schema.prisma'),
          'utf8',
        ).replace(/output\s*=\s*"[^"]*"/, 'output = "./client"');
        writeFileSync(path.join(dir, 'schema.prisma'), schema);
        await run(
          process.execPath,
          [
            path.join(ROOT, 'node_modules/prisma/build/index.js'),
            'generate',
            '--schema',
            'schema.prisma',
          ],
          {
            cwd: dir,
            env: {
              ...process.env,
              PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false',
              PRISMA_QUERY_ENGINE_LIBRARY: '/bin/false',
              CHECKPOINT_DISABLE: '1',
            },
          },
        );
        const imports = importsOf(path.join(dir, 'client'));
        expect(imports).toContain('./internal/class');
        expect(imports.filter((i) => /\.[cm]?ts$/.test(i))).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
