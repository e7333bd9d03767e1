import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './support/esm';
import { byKind, checkManifests, Doc, WorkspaceFacts } from './support/k8s-rules';
import { loadWorkspaceFacts } from './support/workspace-facts';
import { loadYamlFile } from './support/yaml';

// The structure that ties the manifests to the code (labels, probes, env names); the fields
// themselves are checked against the Kubernetes schema in manifests-schema.spec.ts.
const K8S = path.join(ROOT, 'deploy/k8s');

interface Kustomization {
  apiVersion: string;
  kind: string;
  resources: string[];
  images?: { name: string }[];
}

let facts: WorkspaceFacts;
let kustomization: Kustomization;
let docs: Doc[];
let secrets: Doc[];
beforeAll(async () => {
  facts = await loadWorkspaceFacts();
  [kustomization] = loadYamlFile<Kustomization>(path.join(K8S, 'kustomization.yaml'));
  docs = kustomization.resources.flatMap((r) => loadYamlFile<Doc>(path.join(K8S, r)));
  secrets = loadYamlFile<Doc>(path.join(K8S, 'secrets.example.yaml'));
});

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
type Container = {
  image: string;
  env: { name: string }[];
  readinessProbe: { httpGet: { path: string } };
};
const containerOf = (all: Doc[], kind: string, name: string) =>
  (byKind(all, kind).get(name)!.spec as { template: { spec: { containers: Container[] } } })
    .template.spec.containers[0];

describe('deploy/k8s', () => {
  it('is a kustomization listing every manifest file except the example Secrets', () => {
    expect(kustomization.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
    expect(kustomization.kind).toBe('Kustomization');
    for (const r of kustomization.resources) expect(existsSync(path.join(K8S, r))).toBe(true);
    const files = readdirSync(K8S).filter(
      (f) => /\.ya?ml$/.test(f) && !['kustomization.yaml', 'secrets.example.yaml'].includes(f),
    );
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    expect(kustomization.resources).not.toContain('secrets.example.yaml');
  });

  it('deploys every app found in apps/ (today at least crm-people, tenant-info, gateway)', () => {
    expect(facts.apps).toEqual(expect.arrayContaining(['crm-people', 'gateway', 'tenant-info']));
    const deployments = [...byKind(docs, 'Deployment').keys()];
    expect(deployments.sort()).toEqual([...facts.apps].sort());
    expect([...byKind(docs, 'Service').keys()].sort()).toEqual([...facts.apps].sort());
  });

  it('passes the structural rules (kinds, selectors, probes, env names, migration Jobs)', () => {
    expect(checkManifests(docs, secrets, facts)).toEqual([]);
  });

  it.each(['crm-people', 'crm-companies'])(
    'keeps %s files on a shared persistent volume at FILE_STORAGE_DIR',
    (app) => {
      const spec = (byKind(docs, 'Deployment').get(app)!.spec as any).template.spec;
      const container = spec.containers[0];
      const dir = container.env.find((e: { name: string }) => e.name === 'FILE_STORAGE_DIR').value;
      const mount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === dir);
      const volume = spec.volumes.find((v: { name: string }) => v.name === mount.name);
      const claim = byKind(docs, 'PersistentVolumeClaim').get(
        volume.persistentVolumeClaim.claimName,
      );
      expect((claim!.spec as any).accessModes).toEqual(['ReadWriteMany']);
    },
  );

  it('names in its images block every image the manifests use', () => {
    const used = new Set(
      ['Deployment', 'Job'].flatMap((k) =>
        [...byKind(docs, k).keys()].map((n) => containerOf(docs, k, n).image.split(':')[0]),
      ),
    );
    expect([...used].sort()).toEqual((kustomization.images ?? []).map((i) => i.name).sort());
  });

  describe('the rules catch', () => {
    const problemsAfter = (edit: (all: Doc[]) => void) => {
      const all = clone(docs);
      edit(all);
      return checkManifests(all, secrets, facts);
    };

    it('an app without a Deployment', () => {
      expect(
        problemsAfter((all) =>
          all.splice(
            all.findIndex((d) => d.kind === 'Deployment'),
            1,
          ),
        ),
      ).toContainEqual(expect.stringMatching(/^app \S+: no Deployment$/));
    });

    it('a variable the app does not read', () => {
      expect(
        problemsAfter((all) =>
          containerOf(all, 'Deployment', 'crm-people').env.push({ name: 'DATABSE_URL' }),
        ),
      ).toContain('Deployment/crm-people: environment DATABSE_URL is not read by crm-people');
    });

    it('a required variable left out', () => {
      expect(
        problemsAfter((all) => {
          const c = containerOf(all, 'Deployment', 'gateway');
          c.env = c.env.filter((e) => e.name !== 'ADMIN_TOKEN');
        }),
      ).toContain('Deployment/gateway: environment ADMIN_TOKEN is required by gateway');
    });

    it('an app without INTERNAL_TOKEN (it refuses to start in production)', () => {
      const problems = problemsAfter((all) => {
        for (const app of ['crm-people', 'gateway']) {
          const c = containerOf(all, 'Deployment', app);
          c.env = c.env.filter((e) => e.name !== 'INTERNAL_TOKEN');
        }
      });
      expect(problems).toContain(
        'Deployment/crm-people: environment INTERNAL_TOKEN is required by crm-people in production',
      );
      expect(problems).toContain(
        'Deployment/gateway: environment INTERNAL_TOKEN is required by gateway in production',
      );
    });

    it('a probe on the wrong path', () => {
      expect(
        problemsAfter((all) => {
          containerOf(all, 'Deployment', 'tenant-info').readinessProbe.httpGet.path = '/health';
        }),
      ).toContain('Deployment/tenant-info: readinessProbe should GET /health/ready');
    });

    it('a Service selecting no pods', () => {
      expect(
        problemsAfter((all) => {
          (byKind(all, 'Service').get('crm-people')!.spec as { selector: object }).selector = {
            'app.kubernetes.io/name': 'crm-peeple',
          };
        }),
      ).toContain('Service/crm-people: selector does not match the pods of Deployment/crm-people');
    });

    it('a migration Job on another image than its service', () => {
      expect(
        problemsAfter((all) => {
          containerOf(all, 'Job', 'tenant-info-migrate').image = 'crm-events/crm-people';
        }),
      ).toContain("Job/tenant-info-migrate: image should be crm-events/tenant-info, as the app's");
    });
  });
});
