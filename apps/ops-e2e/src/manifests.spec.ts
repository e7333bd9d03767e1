import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { byKind, checkManifests, Doc, WorkspaceFacts } from './support/k8s-rules';
import { K8S_BASE, K8S_OVERLAYS, KUBECTL, kustomize } from './support/kustomize';
import { loadWorkspaceFacts } from './support/workspace-facts';
import { loadYamlFile } from './support/yaml';

// The structure that ties the manifests to the code (labels, probes, env names) and the platform's
// rules (PDB, NetworkPolicy, HPA, drain, security context, spread, object storage); the fields
// themselves are checked against the Kubernetes schema in manifests-schema.spec.ts. The base's
// files are read as they are; with kubectl on the PATH the base and every overlay are also
// rendered (`kubectl kustomize`) and the result checked.
const K8S = K8S_BASE;
const OVERLAYS = existsSync(K8S_OVERLAYS) ? readdirSync(K8S_OVERLAYS) : [];

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

describe('deploy/k8s/base', () => {
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
    // and the worker processes of services (bookings-mail-worker, events-worker), which have no
    // Service
    expect(deployments.sort()).toEqual([...facts.apps, ...facts.workers.map((w) => w.name)].sort());
    expect([...byKind(docs, 'Service').keys()].sort()).toEqual([...facts.apps].sort());
  });

  it('passes the structural rules (kinds, selectors, probes, env names, migration Jobs)', () => {
    expect(checkManifests(docs, secrets, facts)).toEqual([]);
  });

  it.each(['crm-people', 'crm-companies', 'events', 'bookings-invitations'])(
    'keeps %s files in the object storage under its own prefix, with no volume claim',
    (app) => {
      const spec = (byKind(docs, 'Deployment').get(app)!.spec as any).template.spec;
      const container = spec.containers[0];
      const env = (n: string) => container.env.find((e: { name: string }) => e.name === n);
      expect(env('S3_PREFIX').value).toBe(app);
      expect(env('S3_SECRET_ACCESS_KEY').valueFrom.secretKeyRef.name).toBe(`${app}-object-storage`);
      expect(byKind(docs, 'ConfigMap').get('object-storage')!.data!.FILE_STORAGE_BACKEND).toBe(
        's3',
      );
      expect(spec.volumes.some((v: object) => 'persistentVolumeClaim' in v)).toBe(false);
      expect(byKind(docs, 'PersistentVolumeClaim').size).toBe(0);
    },
  );

  it('lets only the worker of events send webhooks: HTTP and HTTPS to public addresses', () => {
    type Rule = {
      to?: { ipBlock?: { cidr: string; except?: string[] } }[];
      ports?: { port: number; protocol: string }[];
    };
    const egress = (name: string) =>
      (byKind(docs, 'NetworkPolicy').get(name)!.spec as { egress: Rule[] }).egress;
    const opens = (rules: Rule[], port: number) =>
      rules.filter((r) => r.ports?.some((p) => p.port === port && p.protocol === 'TCP'));
    const worker = egress('events-worker');
    for (const port of [80, 443]) {
      const rules = opens(worker, port);
      expect(rules.length).toBeGreaterThan(0);
      // only to the internet: never the cluster network or the metadata service (SSRF)
      for (const r of rules) {
        expect(r.to).toEqual([
          {
            ipBlock: expect.objectContaining({
              cidr: '0.0.0.0/0',
              except: expect.arrayContaining([
                '10.0.0.0/8',
                '172.16.0.0/12',
                '192.168.0.0/16',
                '169.254.0.0/16',
              ]),
            }),
          },
        ]);
      }
    }
    // the API pods (PROCESS_ROLE=api) send none; HTTPS stays open to them for the object storage
    expect(opens(egress('events'), 80)).toEqual([]);
    const ingress = (byKind(docs, 'NetworkPolicy').get('events-worker')!.spec as any).ingress;
    expect(ingress).toEqual([]);
  });

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

    it.each([
      ['bookings-mail-worker', 'bookings-invitations', 'mail-worker'],
      ['events-worker', 'events', 'worker'],
    ])(
      'a worker %s (of %s) without its Deployment, in the wrong role, or behind the API Service',
      (worker, app, workerRole) => {
        expect(
          problemsAfter((all) =>
            all.splice(
              all.findIndex((d) => d.kind === 'Deployment' && d.metadata?.name === worker),
              1,
            ),
          ),
        ).toContain(`worker ${worker} of ${app}: no Deployment`);
        const role = (c: Container) =>
          (c.env as { name: string; value?: string }[]).find((e) => e.name === 'PROCESS_ROLE')!;
        const problems = problemsAfter((all) => {
          role(containerOf(all, 'Deployment', worker)).value = 'all';
          role(containerOf(all, 'Deployment', app)).value = 'all';
          const tpl = (byKind(all, 'Deployment').get(worker)!.spec as any).template;
          tpl.metadata.labels['app.kubernetes.io/name'] = app;
        });
        expect(problems).toContain(`Deployment/${worker}: PROCESS_ROLE should be ${workerRole}`);
        expect(problems).toContain(
          `Deployment/${app}: PROCESS_ROLE should be api (${worker} runs the ${workerRole})`,
        );
        expect(problems).toContain(
          `Service/${app}: selector also matches the pods of Deployment/${worker}`,
        );
      },
    );

    it('a worker of events on another database or file prefix than its API', () => {
      type Env = { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string } } };
      const problems = problemsAfter((all) => {
        const env = containerOf(all, 'Deployment', 'events-worker').env as Env[];
        env.find((e) => e.name === 'S3_PREFIX')!.value = 'events-worker';
        env.find((e) => e.name === 'DATABASE_URL')!.valueFrom!.secretKeyRef.name =
          'crm-people-database';
      });
      expect(problems).toContain('Deployment/events-worker: S3_PREFIX should be events');
      expect(problems).toContain(
        'Deployment/events-worker: DATABASE_URL should come from the Secret events reads',
      );
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

    it('an app or worker keeping sealed secrets without SECRETS_KEY, or with it in plain text', () => {
      const problems = problemsAfter((all) => {
        for (const name of ['events', 'bookings-mail-worker']) {
          const c = containerOf(all, 'Deployment', name);
          c.env = c.env.filter((e) => e.name !== 'SECRETS_KEY');
        }
        containerOf(all, 'Deployment', 'bookings-invitations').env = containerOf(
          all,
          'Deployment',
          'bookings-invitations',
        ).env.map((e) => (e.name === 'SECRETS_KEY' ? { name: e.name, value: 'k1:...' } : e));
      });
      expect(problems).toContain(
        'Deployment/events: environment SECRETS_KEY is required by events in production',
      );
      expect(problems).toContain(
        'Deployment/bookings-mail-worker: environment SECRETS_KEY is required by bookings-invitations',
      );
      expect(problems).toContain(
        'Deployment/bookings-invitations: SECRETS_KEY must come from a Secret',
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

    const podSpec = (all: Doc[], app: string) =>
      (byKind(all, 'Deployment').get(app)!.spec as any).template.spec;
    const without = (all: Doc[], kind: string, name: string) =>
      all.splice(
        all.findIndex((d) => d.kind === kind && d.metadata?.name === name),
        1,
      );

    it('a Deployment without a memory limit', () => {
      expect(
        problemsAfter((all) => delete podSpec(all, 'events').containers[0].resources.limits),
      ).toContain('Deployment/events: resources need requests (cpu, memory) and a memory limit');
    });

    it('a heap size too close to the memory limit', () => {
      expect(
        problemsAfter((all) => {
          podSpec(all, 'gateway').containers[0].resources.limits.memory = '240Mi';
        }),
      ).toContain('Deployment/gateway: --max-old-space-size=192 is above 75% of the memory limit');
    });

    it('a Deployment no PodDisruptionBudget selects', () => {
      expect(problemsAfter((all) => without(all, 'PodDisruptionBudget', 'crm-people'))).toContain(
        'Deployment/crm-people: no PodDisruptionBudget selects its pods',
      );
    });

    it('a PodDisruptionBudget that blocks every drain', () => {
      expect(
        problemsAfter((all) => {
          (byKind(all, 'PodDisruptionBudget').get('events')!.spec as any).maxUnavailable = 0;
        }),
      ).toContain('PodDisruptionBudget/events: maxUnavailable 0 blocks drains');
    });

    it('a Deployment no NetworkPolicy selects', () => {
      expect(problemsAfter((all) => without(all, 'NetworkPolicy', 'tenant-info'))).toContain(
        'Deployment/tenant-info: no NetworkPolicy selects its pods (Ingress and Egress)',
      );
    });

    it('a namespace without the default deny', () => {
      expect(problemsAfter((all) => without(all, 'NetworkPolicy', 'default-deny'))).toContain(
        'Deployment/gateway: no default-deny NetworkPolicy (podSelector {}, Ingress, no rule)',
      );
    });

    it('a Deployment no HorizontalPodAutoscaler targets', () => {
      expect(
        problemsAfter((all) => {
          (byKind(all, 'HorizontalPodAutoscaler').get('gateway')!.spec as any).scaleTargetRef.name =
            'gateway-old';
        }),
      ).toContain('Deployment/gateway: no HorizontalPodAutoscaler targets it');
    });

    it('a HorizontalPodAutoscaler that allows a single replica', () => {
      expect(
        problemsAfter((all) => {
          (byKind(all, 'HorizontalPodAutoscaler').get('events')!.spec as any).minReplicas = 1;
        }),
      ).toContain('HorizontalPodAutoscaler/events: minReplicas 1, expected 2 or more');
    });

    it('a Deployment without the preStop pause', () => {
      expect(
        problemsAfter((all) => delete podSpec(all, 'crm-companies').containers[0].lifecycle),
      ).toContain('Deployment/crm-companies: no preStop sleep');
    });

    it('a drain that outlasts the grace period', () => {
      expect(
        problemsAfter((all) => {
          podSpec(all, 'crm-people').terminationGracePeriodSeconds = 20;
        }),
      ).toContain(
        'Deployment/crm-people: terminationGracePeriodSeconds 20 must exceed preStop 5 s + drain 5 s + SHUTDOWN_TIMEOUT_MS 25 s in flight',
      );
    });

    it('a Deployment without SHUTDOWN_DRAIN_MS', () => {
      expect(
        problemsAfter((all) => {
          const c = containerOf(all, 'Deployment', 'gateway');
          c.env = c.env.filter((e) => e.name !== 'SHUTDOWN_DRAIN_MS');
        }),
      ).toContain('Deployment/gateway: SHUTDOWN_DRAIN_MS is not set to a number of milliseconds');
    });

    it.each([
      [
        'runAsNonRoot',
        (s: any) => delete s.securityContext.runAsNonRoot,
        'securityContext.runAsNonRoot is not true',
      ],
      [
        'seccomp',
        (s: any) => delete s.securityContext.seccompProfile,
        'seccompProfile is not RuntimeDefault',
      ],
      [
        'a writable root',
        (s: any) => (s.containers[0].securityContext.readOnlyRootFilesystem = false),
        'securityContext.readOnlyRootFilesystem is not true',
      ],
      [
        'privilege escalation',
        (s: any) => delete s.containers[0].securityContext.allowPrivilegeEscalation,
        'securityContext.allowPrivilegeEscalation is not false',
      ],
      [
        'capabilities kept',
        (s: any) => (s.containers[0].securityContext.capabilities.drop = ['NET_RAW']),
        'securityContext.capabilities.drop lacks ALL',
      ],
      [
        'no /tmp',
        (s: any) => (s.containers[0].volumeMounts = []),
        'no emptyDir at /tmp (the root filesystem is read-only)',
      ],
    ])('a security context with %s', (_what, edit, message) => {
      expect(problemsAfter((all) => edit(podSpec(all, 'events')))).toContain(
        `Deployment/events: ${message}`,
      );
    });

    it('a Deployment not spread over zones, or forced onto distinct nodes', () => {
      const problems = problemsAfter((all) => {
        const spec = podSpec(all, 'tenant-info');
        spec.topologySpreadConstraints = spec.topologySpreadConstraints.filter(
          (t: { topologyKey: string }) => t.topologyKey !== 'topology.kubernetes.io/zone',
        );
        spec.topologySpreadConstraints[0].whenUnsatisfiable = 'DoNotSchedule';
      });
      expect(problems).toContain(
        'Deployment/tenant-info: no topologySpreadConstraint on topology.kubernetes.io/zone selecting its pods',
      );
      expect(problems).toContain(
        'Deployment/tenant-info: topologySpreadConstraint on kubernetes.io/hostname should ScheduleAnyway',
      );
    });

    it('a file-keeping service back on a volume, without its S3 settings', () => {
      const problems = problemsAfter((all) => {
        const spec = podSpec(all, 'crm-people');
        const c = spec.containers[0];
        c.env = c.env.filter((e: { name: string }) => !e.name.startsWith('S3_'));
        spec.volumes.push({
          name: 'files',
          persistentVolumeClaim: { claimName: 'crm-people-files' },
        });
      });
      expect(problems).toContain(
        'Deployment/crm-people: keeps files but S3_ACCESS_KEY_ID is not set',
      );
      expect(problems).toContain('Deployment/crm-people: S3_PREFIX should be crm-people');
      expect(problems).toContain(
        'Deployment/crm-people: files belong in the object storage, not a PersistentVolumeClaim',
      );
    });

    it('S3 credentials written into the manifest', () => {
      expect(
        problemsAfter((all) => {
          const c = containerOf(all, 'Deployment', 'events');
          c.env = c.env.map((e) =>
            e.name === 'S3_SECRET_ACCESS_KEY' ? { name: e.name, value: 'x' } : e,
          );
        }),
      ).toContain('Deployment/events: S3_SECRET_ACCESS_KEY must come from a Secret');
    });

    it('a migration Job on another image than the migrate image', () => {
      expect(
        problemsAfter((all) => {
          containerOf(all, 'Job', 'tenant-info-migrate').image = 'crm-events/tenant-info';
        }),
      ).toContain(
        "Job/tenant-info-migrate: image should be crm-events/migrate, the migrate image beside the app's",
      );
    });
  });
});

describe.each([['base'], ...OVERLAYS.map((o) => [`overlays/${o}`])])(
  'kubectl kustomize deploy/k8s/%s',
  (dir) => {
    const rendered = KUBECTL ? () => kustomize(path.join(K8S, '..', dir)) : null;
    (rendered ? it : it.skip)('renders objects that pass every rule', () => {
      const all = rendered!();
      expect(checkManifests(all, secrets, facts)).toEqual([]);
      expect([...byKind(all, 'Deployment').keys()].sort()).toEqual(
        [...facts.apps, ...facts.workers.map((w) => w.name)].sort(),
      );
    });
  },
);
