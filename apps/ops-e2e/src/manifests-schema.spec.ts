import path from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ROOT } from './support/esm';
import { loadYamlFile } from './support/yaml';

// Every manifest checked against the Kubernetes API schema (kubernetes-models), so a typo in a
// field name or a wrong type fails here rather than at `kubectl apply`.
const K8S = path.join(ROOT, 'deploy/k8s');
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
};

type Doc = { apiVersion: string; kind: string; metadata?: { name?: string } };
const [kustomization] = loadYamlFile<{ resources: string[] }>(path.join(K8S, 'kustomization.yaml'));
const docs = [...kustomization.resources, 'secrets.example.yaml'].flatMap((file) =>
  loadYamlFile<Doc>(path.join(K8S, file)).map((doc) => ({ file, doc })),
);

describe('deploy/k8s against the Kubernetes schema', () => {
  it.each(docs.map(({ file, doc }) => [`${file}: ${doc.kind} ${doc.metadata?.name}`, doc]))(
    '%s is valid',
    (_name, doc) => {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model).toBeDefined();
      expect(() => new Model(doc as never).validate()).not.toThrow();
    },
  );

  it('would catch a misspelled field', () => {
    const deployment = docs.find(({ doc }) => doc.kind === 'Deployment')!.doc as any;
    const broken = JSON.parse(JSON.stringify(deployment));
    broken.spec.template.spec.containers[0].readinessProbe.httpGet.port = { not: 'a port' };
    expect(() => new Deployment(broken).validate()).toThrow();
  });
});
