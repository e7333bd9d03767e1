import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { load } from 'js-yaml';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callEsm, ROOT, tool } from './support/esm';
import { byKind, checkManifests, Doc } from './support/k8s-rules';
import { KUBECTL, kustomize } from './support/kustomize';
import { loadWorkspaceFacts } from './support/workspace-facts';
import { loadYamlFile } from './support/yaml';

// `npx nx g @crm/workspace-plugin:service <name>` on a copy of the repository's deploy files: the
// new service must pass the same rules as the existing ones (compose and Kubernetes checks).

type Generator = (
  tree: Tree,
  options: { name: string; skipFormat: boolean },
) => Promise<() => void>;
const GENERATOR = path.join(ROOT, 'tools/workspace-plugin/src/service/generator.ts');

const COPIED = [
  'docker-compose.yml',
  'Dockerfile',
  'deploy',
  'tools/dev/workspace.mjs',
  'libs/config/src/service-config.ts',
  'libs/config/src/internal-token.ts',
  'libs/config/src/file-storage-config.ts',
];

let dir: string;
let tree: Tree;

function copyIntoTree(t: Tree, rel: string) {
  const abs = path.join(ROOT, rel);
  try {
    for (const entry of readdirSync(abs)) copyIntoTree(t, path.join(rel, entry));
  } catch {
    t.write(rel, readFileSync(abs));
  }
}

/** The tree's files written out, with the apps as they are (for the rules that read the disk). */
function writeOut(t: Tree, root: string) {
  const walk = (rel: string) => {
    for (const child of t.children(rel)) {
      const p = rel ? `${rel}/${child}` : child;
      if (t.isFile(p)) {
        mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
        writeFileSync(path.join(root, p), t.read(p)!);
      } else walk(p);
    }
  };
  walk('');
}

beforeAll(async () => {
  tree = createTreeWithEmptyWorkspace();
  for (const rel of COPIED) copyIntoTree(tree, rel);
  for (const app of readdirSync(path.join(ROOT, 'apps'))) {
    try {
      copyIntoTree(tree, `apps/${app}/src/config.ts`);
      copyIntoTree(tree, `apps/${app}/src/main.ts`);
    } catch {
      // test projects have neither
    }
  }
  const generator = ((await import(GENERATOR)) as { default: Generator }).default;
  await generator(tree, { name: 'ticket-scanner', skipFormat: true });
  dir = mkdtempSync(path.join(os.tmpdir(), 'service-generator-'));
  writeOut(tree, dir);
  // the other apps' sources, so the rules see every env name they read
  for (const app of readdirSync(path.join(ROOT, 'apps')))
    if (app !== 'ticket-scanner')
      cpSync(path.join(ROOT, 'apps', app, 'src'), path.join(dir, 'apps', app, 'src'), {
        recursive: true,
        filter: (src) => !src.includes('generated'),
      });
  // as after the printed next step `node tools/prisma.mjs diff <name> init`
  for (const app of [...readdirSync(path.join(dir, 'apps')), 'ticket-scanner'])
    mkdirSync(path.join(dir, 'prisma', app, 'migrations'), { recursive: true });
});
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

const read = (p: string) => tree.read(p, 'utf-8') ?? '';

it('writes the service skeleton with the next free port, its database and a first integration test', () => {
  expect(read('apps/ticket-scanner/src/config.ts')).toContain(
    'export class TicketScannerConfig extends FileStorageConfig',
  );
  expect(read('apps/ticket-scanner/src/config.ts')).toContain('override PORT: number = 3010;');
  expect(read('apps/ticket-scanner/src/app.module.ts')).toContain(
    "export const SERVICE_NAME = 'ticket-scanner';",
  );
  expect(read('apps/ticket-scanner/src/test/service-harness.ts')).toContain(
    'export const startTicketScanner',
  );
  expect(read('apps/ticket-scanner/src/health.int-spec.ts')).toContain(
    "startTicketScanner('ticket_scanner_it_health')",
  );
  expect(read('prisma/ticket-scanner/schema.prisma')).toContain(
    'output          = "../../apps/ticket-scanner/src/generated/prisma"',
  );
  expect(read('prisma/ticket-scanner/schema.prisma')).toMatch(/model OutboxEvent \{/);
  expect(JSON.parse(read('apps/ticket-scanner/project.json')).tags).toEqual([
    'type:app',
    'scope:service',
  ]);
});

it('adds the service to docker-compose.yml, and the result passes the compose rules', async () => {
  const compose = load(read('docker-compose.yml'), {}) as {
    services: Record<
      string,
      {
        command?: string[];
        environment?: Record<string, string>;
        depends_on?: Record<string, unknown>;
      }
    >;
  };
  expect(compose.services['ticket-scanner-migrate'].command).toEqual([
    'node',
    'tools/prisma.mjs',
    'deploy',
    'ticket-scanner',
  ]);
  expect(compose.services.gateway.environment!.TICKET_SCANNER_URL).toBe(
    'http://ticket-scanner:3000',
  );
  expect(compose.services.gateway.depends_on!['ticket-scanner']).toEqual({
    condition: 'service_healthy',
  });
  const [doc] = loadYamlFile(path.join(dir, 'docker-compose.yml'));
  await expect(
    callEsm<string[]>(tool('tools/dev/compose-rules.mjs'), 'checkCompose', doc, {
      root: dir,
      composeDir: dir,
    }),
    // the gateway learns of a service the design does not name in a printed next step
  ).resolves.toEqual(['gateway: environment TICKET_SCANNER_URL is not read by gateway']);
});

it('adds the Kubernetes manifest, image, URL and Secret, and the result passes the manifest rules', async () => {
  const k8s = path.join(dir, 'deploy/k8s/base');
  const kustomization = loadYamlFile<{ resources: string[]; images: { name: string }[] }>(
    path.join(k8s, 'kustomization.yaml'),
  )[0];
  expect(kustomization.resources).toContain('ticket-scanner.yaml');
  expect(kustomization.images.map((i) => i.name)).toContain('crm-events/ticket-scanner');
  const docs = kustomization.resources.flatMap((r) => loadYamlFile<Doc>(path.join(k8s, r)));
  const secrets = loadYamlFile<Doc>(path.join(k8s, 'secrets.example.yaml'));
  const facts = await loadWorkspaceFacts(dir);

  expect(facts.apps).toContain('ticket-scanner');
  expect(checkManifests(docs, secrets, facts)).toEqual([
    'Deployment/gateway: environment TICKET_SCANNER_URL is not read by gateway',
  ]);
  // its PodDisruptionBudget, HorizontalPodAutoscaler and NetworkPolicy come with the manifest
  for (const kind of ['PodDisruptionBudget', 'HorizontalPodAutoscaler', 'NetworkPolicy'])
    expect(byKind(docs, kind).has('ticket-scanner')).toBe(true);
});

it('adds the image to the production overlay, which renders the service with the production settings', () => {
  const overlay = path.join(dir, 'deploy/k8s/overlays/production');
  const [kustomization] = loadYamlFile<{ images: { name: string; newName: string }[] }>(
    path.join(overlay, 'kustomization.yaml'),
  );
  expect(kustomization.images).toContainEqual(
    expect.objectContaining({
      name: 'crm-events/ticket-scanner',
      newName: 'registry.example.com/crm-events/ticket-scanner',
    }),
  );
  if (!KUBECTL) return;
  const hpa = byKind(kustomize(overlay), 'HorizontalPodAutoscaler').get('ticket-scanner');
  expect((hpa!.spec as { minReplicas: number }).minReplicas).toBe(3);
});
