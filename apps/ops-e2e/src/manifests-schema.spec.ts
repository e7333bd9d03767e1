import path from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { existsSync, readdirSync } from 'node:fs';
import { K8S_BASE, K8S_OVERLAYS, KUBECTL, kustomize } from './support/kustomize';
import { loadYamlFile } from './support/yaml';

// Every manifest checked against the Kubernetes API schema (kubernetes-models), so a typo in a
// field name or a wrong type fails here rather than at `kubectl apply`: the base's files as they
// are and, with kubectl on the PATH, every object `kubectl kustomize` renders for the base and
// each overlay (deploy/k8s/overlays/*).
const K8S = K8S_BASE;
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

type Doc = { apiVersion: string; kind: string; metadata?: { name?: string } };
const [kustomization] = loadYamlFile<{ resources: string[] }>(path.join(K8S, 'kustomization.yaml'));
const docs = [...kustomization.resources, 'secrets.example.yaml'].flatMap((file) =>
  loadYamlFile<Doc>(path.join(K8S, file)).map((doc) => ({ file, doc })),
);

const overlays = existsSync(K8S_OVERLAYS) ? readdirSync(K8S_OVERLAYS) : [];
const rendered = KUBECTL
  ? ['base', ...overlays.map((o) => `overlays/${o}`)].flatMap((dir) =>
      kustomize(path.join(K8S, '..', dir)).map((doc) => ({
        file: `kustomize ${dir}`,
        doc: doc as Doc,
      })),
    )
  : [];

describe('deploy/k8s against the Kubernetes schema', () => {
  it.each(
    [...docs, ...rendered].map(({ file, doc }) => [
      `${file}: ${doc.kind} ${doc.metadata?.name}`,
      doc,
    ]),
  )('%s is valid', (_name, doc) => {
    const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
    expect(Model).toBeDefined();
    expect(() => new Model(doc as never).validate()).not.toThrow();
  });

  it('would catch a misspelled field', () => {
    const deployment = docs.find(({ doc }) => doc.kind === 'Deployment')!.doc as any;
    const broken = JSON.parse(JSON.stringify(deployment));
    broken.spec.template.spec.containers[0].readinessProbe.httpGet.port = { not: 'a port' };
    expect(() => new Deployment(broken).validate()).toThrow();
  });

  it('renders the base and the overlays when kubectl is on the PATH', () => {
    if (!KUBECTL) return; // the base's files above are still validated
    expect(overlays).toContain('production');
    expect(rendered.some(({ file }) => file === 'kustomize overlays/production')).toBe(true);
  });
});
