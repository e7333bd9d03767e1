// Structural checks of the Kubernetes manifests in deploy/k8s. The schema itself (every field's
// type) is what kubernetes-models would add; these rules check what ties the manifests to the
// repository: every app deployed, selectors that match, probes on the health routes, the
// environment names the apps read, a migration Job per service.

export type Doc = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};

export interface WorkspaceFacts {
  apps: string[];
  /** Environment names each app reads, those it requires, and those required in production. */
  env: Record<string, { names: string[]; required: string[]; production: string[] }>;
  /** Services with prisma/<svc>/migrations. */
  migrated: string[];
  runtimeEnv: string[];
  databaseName: Record<string, string>;
  envPrefix: Record<string, string>;
}

const API_VERSIONS: Record<string, string> = {
  Deployment: 'apps/v1',
  Service: 'v1',
  ConfigMap: 'v1',
  Secret: 'v1',
  Job: 'batch/v1',
  PersistentVolumeClaim: 'v1',
};

interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name?: string;
  image?: string;
  command?: string[];
  ports?: { name?: string; containerPort?: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec?: { containers?: Container[]; restartPolicy?: string };
}

const GATEWAY = 'gateway';
const subset = (a: Record<string, string> = {}, b: Record<string, string> = {}) =>
  Object.keys(a).length > 0 && Object.entries(a).every(([k, v]) => b[k] === v);

export function byKind(docs: Doc[], kind: string): Map<string, Doc> {
  return new Map(docs.filter((d) => d.kind === kind).map((d) => [d.metadata?.name ?? '', d]));
}

/** Problems of the manifests `docs` (the kustomization's resources) plus the example Secrets. */
export function checkManifests(docs: Doc[], secrets: Doc[], facts: WorkspaceFacts): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const d of docs) {
    const id = `${d.kind}/${d.metadata?.name}`;
    if (!d.kind || !API_VERSIONS[d.kind]) problems.push(`${id}: unexpected kind`);
    else if (d.apiVersion !== API_VERSIONS[d.kind])
      problems.push(`${id}: apiVersion ${d.apiVersion}, expected ${API_VERSIONS[d.kind]}`);
    if (!d.metadata?.name) problems.push(`${d.kind}: metadata.name missing`);
    if (seen.has(id)) problems.push(`${id}: defined twice`);
    seen.add(id);
  }
  const deployments = byKind(docs, 'Deployment');
  const services = byKind(docs, 'Service');
  const configMaps = byKind(docs, 'ConfigMap');
  const jobs = byKind(docs, 'Job');
  const secretKeys = new Map(
    secrets
      .filter((s) => s.kind === 'Secret')
      .map((s) => [s.metadata?.name ?? '', Object.keys({ ...s.data, ...s.stringData })]),
  );

  /** Names a container gets, checking that each ConfigMap and Secret it reads exists. */
  const envOf = (id: string, c: Container) => {
    const names: string[] = [];
    for (const from of c.envFrom ?? []) {
      const cm = from.configMapRef?.name;
      if (cm && !configMaps.has(cm)) problems.push(`${id}: reads ConfigMap ${cm}, not defined`);
      if (cm) names.push(...Object.keys(configMaps.get(cm)?.data ?? {}));
      if (from.secretRef) problems.push(`${id}: envFrom a whole Secret hides which keys it needs`);
    }
    for (const e of c.env ?? []) {
      names.push(e.name);
      const ref = e.valueFrom?.secretKeyRef;
      if (ref && !secretKeys.get(ref.name)?.includes(ref.key))
        problems.push(`${id}: Secret ${ref.name} key ${ref.key} is not in secrets.example.yaml`);
    }
    return names;
  };
  const secretOf = (c: Container | undefined, name: string) =>
    c?.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;

  for (const app of facts.apps) {
    const dep = deployments.get(app);
    const svc = services.get(app);
    if (!dep) problems.push(`app ${app}: no Deployment`);
    if (!svc) problems.push(`app ${app}: no Service`);
    if (!dep) continue;
    const id = `Deployment/${app}`;
    const spec = dep.spec as {
      replicas?: number;
      selector?: { matchLabels?: Record<string, string> };
      template?: PodTemplate;
    };
    const podLabels = spec.template?.metadata?.labels;
    if ((spec.replicas ?? 1) < 2) problems.push(`${id}: replicas ${spec.replicas}, expected 2`);
    if (!subset(spec.selector?.matchLabels, podLabels))
      problems.push(`${id}: selector.matchLabels do not match the pod labels`);
    const selector = (svc?.spec as { selector?: Record<string, string> } | undefined)?.selector;
    if (svc && !subset(selector, podLabels))
      problems.push(`Service/${app}: selector does not match the pods of ${id}`);
    for (const job of jobs.values()) {
      const jobLabels = (job.spec as { template?: PodTemplate }).template?.metadata?.labels;
      if (svc && subset(selector, jobLabels))
        problems.push(
          `Service/${app}: selector also matches the pods of Job/${job.metadata?.name}`,
        );
    }
    const servicePorts = (svc?.spec as { ports?: { targetPort?: string | number }[] })?.ports ?? [];

    const c = spec.template?.spec?.containers?.[0];
    if (!c) {
      problems.push(`${id}: no container`);
      continue;
    }
    if (c.image?.split(':')[0] !== `crm-events/${app}`)
      problems.push(`${id}: image ${c.image}, expected crm-events/${app}`);
    const portNames = (c.ports ?? []).map((p) => p.name);
    if (!c.ports?.some((p) => p.name === 'http' && p.containerPort === 3000))
      problems.push(`${id}: no container port "http" 3000`);
    for (const p of servicePorts)
      if (typeof p.targetPort === 'string' && !portNames.includes(p.targetPort))
        problems.push(`Service/${app}: targetPort ${p.targetPort} is no port of the container`);
    const probe = (name: 'readinessProbe' | 'livenessProbe', path: string) => {
      const get = c[name]?.httpGet;
      if (get?.path !== path) problems.push(`${id}: ${name} should GET ${path}`);
      else if (typeof get.port === 'string' && !portNames.includes(get.port))
        problems.push(`${id}: ${name} uses port ${get.port}, which the container lacks`);
    };
    probe('readinessProbe', '/health/ready');
    probe('livenessProbe', '/health/live');
    if (
      !c.resources?.requests?.cpu ||
      !c.resources?.requests?.memory ||
      !c.resources?.limits?.memory
    )
      problems.push(`${id}: resources need requests (cpu, memory) and a memory limit`);

    const env = envOf(id, c);
    const reads = facts.env[app];
    for (const n of env)
      if (!reads.names.includes(n) && !facts.runtimeEnv.includes(n))
        problems.push(`${id}: environment ${n} is not read by ${app}`);
    for (const n of reads.required)
      if (!env.includes(n)) problems.push(`${id}: environment ${n} is required by ${app}`);
    // The manifests run every app with NODE_ENV=production (config.yaml).
    for (const n of reads.production)
      if (!env.includes(n))
        problems.push(`${id}: environment ${n} is required by ${app} in production`);
    for (const n of ['DATABASE_URL', 'ADMIN_TOKEN', 'INTERNAL_TOKEN'])
      if (env.includes(n) && !secretOf(c, n)) problems.push(`${id}: ${n} must come from a Secret`);

    if (app === GATEWAY) {
      const gatewayEnv = Object.fromEntries(
        (c.envFrom ?? []).flatMap((f) =>
          Object.entries(configMaps.get(f.configMapRef?.name ?? '')?.data ?? {}),
        ),
      );
      for (const other of facts.apps.filter((a) => a !== GATEWAY)) {
        const key = `${facts.envPrefix[other]}_URL`;
        if (!gatewayEnv[key]) problems.push(`${id}: ${key} is not set`);
        else if (new URL(gatewayEnv[key]).hostname !== other)
          problems.push(`${id}: ${key} should point at the Service ${other}`);
      }
      for (const s of (gatewayEnv.GRAPHQL_SUBGRAPHS ?? '').split(',').filter(Boolean))
        if (!facts.apps.includes(s) || s === GATEWAY)
          problems.push(`${id}: GRAPHQL_SUBGRAPHS names ${s}, which is not a service`);
      continue;
    }

    if (!facts.migrated.includes(app)) continue;
    const job = jobs.get(`${app}-migrate`);
    if (!job) {
      problems.push(`service ${app}: no Job ${app}-migrate`);
      continue;
    }
    const jobId = `Job/${app}-migrate`;
    const template = (job.spec as { template?: PodTemplate }).template;
    const jc = template?.spec?.containers?.[0];
    if (!['Never', 'OnFailure'].includes(template?.spec?.restartPolicy ?? ''))
      problems.push(`${jobId}: restartPolicy must be Never or OnFailure`);
    if (jc?.image !== c.image) problems.push(`${jobId}: image should be ${c.image}, as the app's`);
    if (JSON.stringify(jc?.command) !== JSON.stringify(['node', 'tools/prisma.mjs', 'deploy', app]))
      problems.push(`${jobId}: command should be node tools/prisma.mjs deploy ${app}`);
    const appDb = secretOf(c, 'DATABASE_URL');
    const jobDb = secretOf(jc, 'DATABASE_URL');
    if (!jobDb || jobDb.name !== appDb?.name || jobDb.key !== appDb?.key)
      problems.push(`${jobId}: DATABASE_URL should come from the Secret the app reads`);
    const example = secrets.find((s) => s.metadata?.name === appDb?.name)?.stringData?.DATABASE_URL;
    if (example && !example.endsWith(`/${facts.databaseName[app]}`))
      problems.push(
        `secrets.example.yaml: ${appDb?.name} should name database ${facts.databaseName[app]}`,
      );
  }
  return problems;
}
