// Structural checks of the Kubernetes manifests in deploy/k8s (the base's files, or a rendered
// `kubectl kustomize` of the base or an overlay). The schema itself (every field's type) is
// checked with kubernetes-models (manifests-schema.spec.ts); these rules check what ties the
// manifests to the repository and what the platform expects of every Deployment: every app
// deployed, selectors that match, probes on the health routes, the environment names the apps
// read, a migration Job per service, requests and a memory limit, a PodDisruptionBudget, a
// NetworkPolicy (and the namespace's default deny), a HorizontalPodAutoscaler, the preStop pause
// and drain inside the grace period, the restricted security context, topology spread, and the
// object storage for the services that keep files. A service's worker process (bookings-mail-worker)
// is a Deployment of its own: the service's image in its PROCESS_ROLE, no Service, the same
// platform rules except the preStop pause and drain (nothing routes to it).

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
  /** Processes of a service besides its API (tools/dev/workspace.mjs WORKER_PROCESSES). */
  workers: { app: string; name: string; role: string }[];
}

const API_VERSIONS: Record<string, string> = {
  Deployment: 'apps/v1',
  Service: 'v1',
  ConfigMap: 'v1',
  Secret: 'v1',
  Job: 'batch/v1',
  Namespace: 'v1',
  PodDisruptionBudget: 'policy/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  NetworkPolicy: 'networking.k8s.io/v1',
};

/** The object storage settings every service that keeps files must have (FileStorageConfig). */
export const FILE_STORAGE_ENV = Object.freeze({
  files: [
    'FILE_STORAGE_BACKEND',
    'S3_BUCKET',
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_PREFIX',
    'S3_FORCE_PATH_STYLE',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
  ],
});
/** Object storage settings that come from a Secret. */
const S3_SECRETS = ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
/** ServiceConfig's SHUTDOWN_TIMEOUT_MS when a Deployment does not set it. */
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';

interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface SecurityContext {
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
  seccompProfile?: { type?: string };
}
interface Container {
  name?: string;
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
  lifecycle?: {
    preStop?: { sleep?: { seconds?: number }; exec?: { command?: string[] } };
  };
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
  spec?: {
    containers?: Container[];
    restartPolicy?: string;
    securityContext?: SecurityContext;
    terminationGracePeriodSeconds?: number;
    volumes?: { name: string; emptyDir?: object; persistentVolumeClaim?: object }[];
    topologySpreadConstraints?: {
      topologyKey?: string;
      whenUnsatisfiable?: string;
      labelSelector?: { matchLabels?: Record<string, string> };
    }[];
  };
}
type Selector = { matchLabels?: Record<string, string> };

/** A Kubernetes memory quantity in MiB (512Mi, 1Gi, 500M, bytes). */
export function mebibytes(q: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|k|M|G)?$/.exec(q ?? '');
  if (!m) return NaN;
  const unit: Record<string, number> = {
    Ki: 1 / 1024,
    Mi: 1,
    Gi: 1024,
    K: 1000 / 1048576,
    k: 1000 / 1048576,
    M: 1e6 / 1048576,
    G: 1e9 / 1048576,
  };
  return Number(m[1]) * (m[2] ? unit[m[2]] : 1 / 1048576);
}
/** An image without its registry and tag: `registry.example.com:5000/crm-events/x:1` -> `crm-events/x`. */
const imagePath = (image = '') =>
  image
    .replace(/@.*$/, '')
    .replace(/:[^/:]+$/, '')
    .split('/')
    .slice(-2)
    .join('/');

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
    if (spec.replicas !== undefined && spec.replicas < 2)
      problems.push(`${id}: replicas ${spec.replicas}, expected 2`);
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
    if (imagePath(c.image) !== `crm-events/${app}`)
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
    const ownsFiles = ['FILE_STORAGE_DIR', 'FILE_STORAGE_BACKEND'].some((n) =>
      reads.names.includes(n),
    );
    for (const n of env)
      if (!reads.names.includes(n) && !facts.runtimeEnv.includes(n))
        problems.push(`${id}: environment ${n} is not read by ${app}`);
    problems.push(...platformProblems(id, app, spec, c, docs, ownsFiles));
    for (const n of reads.required)
      if (!env.includes(n)) problems.push(`${id}: environment ${n} is required by ${app}`);
    // The manifests run every app with NODE_ENV=production (config.yaml).
    for (const n of reads.production)
      if (!env.includes(n))
        problems.push(`${id}: environment ${n} is required by ${app} in production`);
    for (const n of ['DATABASE_URL', 'ADMIN_TOKEN', 'INTERNAL_TOKEN', 'SECRETS_KEY', ...S3_SECRETS])
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
    // the migrate image (Dockerfile target migrate), at the app's registry and tag
    const migrateImage = (c.image ?? '').replace(/crm-events\/[a-z0-9-]+/, 'crm-events/migrate');
    if (imagePath(jc?.image) !== 'crm-events/migrate' || jc?.image !== migrateImage)
      problems.push(
        `${jobId}: image should be ${migrateImage}, the migrate image beside the app's`,
      );
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
  for (const w of facts.workers ?? []) {
    const dep = deployments.get(w.name);
    const id = `Deployment/${w.name}`;
    if (!dep) {
      problems.push(`worker ${w.name} of ${w.app}: no Deployment`);
      continue;
    }
    const spec = dep.spec as { selector?: Selector; template?: PodTemplate };
    const podLabels = spec.template?.metadata?.labels;
    if (!subset(spec.selector?.matchLabels, podLabels))
      problems.push(`${id}: selector.matchLabels do not match the pod labels`);
    for (const [name, svc] of services)
      if (subset((svc.spec as { selector?: Record<string, string> }).selector, podLabels))
        problems.push(`Service/${name}: selector also matches the pods of ${id}`);
    const c = spec.template?.spec?.containers?.[0];
    if (!c) {
      problems.push(`${id}: no container`);
      continue;
    }
    if (imagePath(c.image) !== `crm-events/${w.app}`)
      problems.push(`${id}: image ${c.image}, expected crm-events/${w.app}`);
    const appImage = containerOfDoc(deployments.get(w.app))?.image;
    if (appImage && c.image !== appImage)
      problems.push(`${id}: image ${c.image}, expected the image of ${w.app} (${appImage})`);
    const portNames = (c.ports ?? []).map((p) => p.name);
    if (!c.ports?.some((p) => p.name === 'http' && p.containerPort === 3000))
      problems.push(`${id}: no container port "http" 3000`);
    for (const [name, path] of [
      ['readinessProbe', '/health/ready'],
      ['livenessProbe', '/health/live'],
    ] as const) {
      const get = c[name]?.httpGet;
      if (get?.path !== path) problems.push(`${id}: ${name} should GET ${path}`);
      else if (typeof get.port === 'string' && !portNames.includes(get.port))
        problems.push(`${id}: ${name} uses port ${get.port}, which the container lacks`);
    }
    if (
      !c.resources?.requests?.cpu ||
      !c.resources?.requests?.memory ||
      !c.resources?.limits?.memory
    )
      problems.push(`${id}: resources need requests (cpu, memory) and a memory limit`);
    const env = envOf(id, c);
    const reads = facts.env[w.app];
    for (const n of env)
      if (!reads.names.includes(n) && !facts.runtimeEnv.includes(n))
        problems.push(`${id}: environment ${n} is not read by ${w.app}`);
    for (const n of [...reads.required, ...reads.production])
      if (!env.includes(n)) problems.push(`${id}: environment ${n} is required by ${w.app}`);
    for (const n of ['DATABASE_URL', 'INTERNAL_TOKEN', 'SECRETS_KEY', ...S3_SECRETS])
      if (env.includes(n) && !secretOf(c, n)) problems.push(`${id}: ${n} must come from a Secret`);
    const appDb = secretOf(containerOfDoc(deployments.get(w.app)), 'DATABASE_URL');
    const db = secretOf(c, 'DATABASE_URL');
    if (appDb && (db?.name !== appDb.name || db?.key !== appDb.key))
      problems.push(`${id}: DATABASE_URL should come from the Secret ${w.app} reads`);
    const role = (x: Container | undefined) =>
      x?.env?.find((e) => e.name === 'PROCESS_ROLE')?.value;
    if (role(c) !== w.role) problems.push(`${id}: PROCESS_ROLE should be ${w.role}`);
    if (deployments.has(w.app) && role(containerOfDoc(deployments.get(w.app))) !== 'api')
      problems.push(
        `Deployment/${w.app}: PROCESS_ROLE should be api (${w.name} runs the ${w.role})`,
      );
    const ownsFiles = reads.names.includes('FILE_STORAGE_BACKEND');
    problems.push(
      ...platformProblems(id, w.name, spec, c, docs, ownsFiles, { s3Prefix: w.app, worker: true }),
    );
  }
  return problems;
}

const containerOfDoc = (d: Doc | undefined): Container | undefined =>
  (d?.spec as { template?: PodTemplate } | undefined)?.template?.spec?.containers?.[0];

/** Whether `selector` (non-empty) selects pods labelled `labels`. */
const selects = (selector: Selector | undefined, labels: Record<string, string> | undefined) =>
  subset(selector?.matchLabels, labels);

/** What the platform expects of every Deployment, beyond what ties it to the code. */
function platformProblems(
  id: string,
  app: string,
  spec: { template?: PodTemplate },
  c: Container,
  docs: Doc[],
  ownsFiles: boolean,
  /** `worker`: no Service routes to it (no preStop pause or drain); `s3Prefix`: else `app`. */
  opts: { s3Prefix?: string; worker?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const pod = spec.template?.spec ?? {};
  const labels = spec.template?.metadata?.labels;

  // Requests and limits: the memory limit leaves the V8 heap room for code, buffers, new space.
  const limit = mebibytes(c.resources?.limits?.memory);
  const heap = /--max-old-space-size=(\d+)/.exec(
    c.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '',
  )?.[1];
  if (heap && Number(heap) > limit * 0.75)
    problems.push(`${id}: --max-old-space-size=${heap} is above 75% of the memory limit`);

  const pdbs = [...byKind(docs, 'PodDisruptionBudget').values()].filter((d) =>
    selects((d.spec as { selector?: Selector }).selector, labels),
  );
  if (pdbs.length === 0) problems.push(`${id}: no PodDisruptionBudget selects its pods`);
  for (const pdb of pdbs) {
    const { minAvailable, maxUnavailable } = pdb.spec as {
      minAvailable?: number | string;
      maxUnavailable?: number | string;
    };
    if (maxUnavailable === undefined && minAvailable === undefined)
      problems.push(`PodDisruptionBudget/${pdb.metadata?.name}: sets neither bound`);
    if (maxUnavailable === 0 || maxUnavailable === '0%')
      problems.push(`PodDisruptionBudget/${pdb.metadata?.name}: maxUnavailable 0 blocks drains`);
  }

  const policies = [...byKind(docs, 'NetworkPolicy').values()].map(
    (d) =>
      d.spec as { podSelector?: Selector; policyTypes?: string[]; ingress?: unknown[] } & object,
  );
  if (
    !policies.some(
      (p) =>
        Object.keys(p.podSelector?.matchLabels ?? {}).length === 0 &&
        p.policyTypes?.includes('Ingress') &&
        !p.ingress?.length,
    )
  )
    problems.push(`${id}: no default-deny NetworkPolicy (podSelector {}, Ingress, no rule)`);
  if (
    !policies.some(
      (p) =>
        selects(p.podSelector, labels) &&
        p.policyTypes?.includes('Ingress') &&
        p.policyTypes?.includes('Egress'),
    )
  )
    problems.push(`${id}: no NetworkPolicy selects its pods (Ingress and Egress)`);

  const hpas = [...byKind(docs, 'HorizontalPodAutoscaler').values()].filter((d) => {
    const ref = (d.spec as { scaleTargetRef?: { kind?: string; name?: string } }).scaleTargetRef;
    return ref?.kind === 'Deployment' && ref.name === app;
  });
  if (hpas.length === 0) problems.push(`${id}: no HorizontalPodAutoscaler targets it`);
  for (const hpa of hpas) {
    const hs = hpa.spec as {
      minReplicas?: number;
      metrics?: { resource?: { name?: string; target?: { type?: string } } }[];
    };
    const hid = `HorizontalPodAutoscaler/${hpa.metadata?.name}`;
    if ((hs.minReplicas ?? 1) < 2)
      problems.push(`${hid}: minReplicas ${hs.minReplicas}, expected 2 or more`);
    if (
      !hs.metrics?.some(
        (m) => m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization',
      )
    )
      problems.push(`${hid}: no CPU utilization target`);
    if (!c.resources?.requests?.cpu) problems.push(`${hid}: CPU utilization needs a CPU request`);
  }

  // preStop pause, then the app's drain (SHUTDOWN_DRAIN_MS), then requests in flight: all before
  // the grace period ends in SIGKILL.
  const preStop = c.lifecycle?.preStop;
  const execSleep = preStop?.exec?.command?.join(' ').match(/^(?:\/bin\/)?sleep (\d+)$/)?.[1];
  const pause = preStop?.sleep?.seconds ?? (execSleep ? Number(execSleep) : undefined);
  const grace = pod.terminationGracePeriodSeconds ?? 30;
  // After the drain, the app waits up to SHUTDOWN_TIMEOUT_MS for its work in flight (requests,
  // the webhooks or mails being sent), then exits 1.
  const closeMs = Number(
    c.env?.find((e) => e.name === 'SHUTDOWN_TIMEOUT_MS')?.value ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
  );
  if (opts.worker) {
    if (!(grace > closeMs / 1000))
      problems.push(
        `${id}: terminationGracePeriodSeconds ${grace} must exceed SHUTDOWN_TIMEOUT_MS ${closeMs / 1000} s`,
      );
  } else {
    if (pause === undefined) problems.push(`${id}: no preStop sleep`);
    const drainMs = c.env?.find((e) => e.name === 'SHUTDOWN_DRAIN_MS')?.value;
    if (drainMs === undefined || !/^\d+$/.test(drainMs))
      problems.push(`${id}: SHUTDOWN_DRAIN_MS is not set to a number of milliseconds`);
    const needed = (pause ?? 0) + Number(drainMs ?? 0) / 1000 + closeMs / 1000;
    if (grace <= needed)
      problems.push(
        `${id}: terminationGracePeriodSeconds ${grace} must exceed preStop ${pause ?? 0} s + drain ${Number(drainMs ?? 0) / 1000} s + SHUTDOWN_TIMEOUT_MS ${closeMs / 1000} s in flight`,
      );
  }

  // The restricted Pod Security Standard; the pod's settings count for its containers.
  const sc = { ...pod.securityContext, ...c.securityContext };
  if (sc.runAsNonRoot !== true) problems.push(`${id}: securityContext.runAsNonRoot is not true`);
  if (c.securityContext?.readOnlyRootFilesystem !== true)
    problems.push(`${id}: securityContext.readOnlyRootFilesystem is not true`);
  if (c.securityContext?.allowPrivilegeEscalation !== false)
    problems.push(`${id}: securityContext.allowPrivilegeEscalation is not false`);
  if (!c.securityContext?.capabilities?.drop?.includes('ALL'))
    problems.push(`${id}: securityContext.capabilities.drop lacks ALL`);
  if (sc.seccompProfile?.type !== 'RuntimeDefault')
    problems.push(`${id}: seccompProfile is not RuntimeDefault`);
  const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
  if (!tmp || !pod.volumes?.some((v) => v.name === tmp.name && v.emptyDir))
    problems.push(`${id}: no emptyDir at /tmp (the root filesystem is read-only)`);

  for (const key of [HOSTNAME, ZONE]) {
    const t = pod.topologySpreadConstraints?.find((x) => x.topologyKey === key);
    if (!t || !selects(t.labelSelector, labels))
      problems.push(`${id}: no topologySpreadConstraint on ${key} selecting its pods`);
    else if (t.whenUnsatisfiable !== 'ScheduleAnyway')
      problems.push(`${id}: topologySpreadConstraint on ${key} should ScheduleAnyway`);
  }

  if (ownsFiles) {
    const names = new Set(c.env?.map((e) => e.name));
    for (const from of c.envFrom ?? []) {
      const cm = byKind(docs, 'ConfigMap').get(from.configMapRef?.name ?? '');
      for (const [k, v] of Object.entries(cm?.data ?? {})) {
        names.add(k);
        if (k === 'FILE_STORAGE_BACKEND' && v !== 's3')
          problems.push(`${id}: FILE_STORAGE_BACKEND is ${v}, expected s3`);
      }
    }
    for (const n of FILE_STORAGE_ENV.files)
      if (!names.has(n)) problems.push(`${id}: keeps files but ${n} is not set`);
    const prefix = opts.s3Prefix ?? app;
    if (c.env?.find((e) => e.name === 'S3_PREFIX')?.value !== prefix)
      problems.push(`${id}: S3_PREFIX should be ${prefix}`);
    if (pod.volumes?.some((v) => v.persistentVolumeClaim))
      problems.push(`${id}: files belong in the object storage, not a PersistentVolumeClaim`);
  }
  return problems;
}
