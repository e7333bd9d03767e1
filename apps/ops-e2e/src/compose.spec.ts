import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { callEsm, ROOT, tool } from './support/esm';
import type { WorkspaceFacts } from './support/k8s-rules';
import { loadWorkspaceFacts } from './support/workspace-facts';
import { loadYamlFile } from './support/yaml';

interface ComposeService {
  image?: string;
  command?: string[];
  build?: { context: string; args: Record<string, string> };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, ComposeService>;
}

const RULES = tool('tools/dev/compose-rules.mjs');
let facts: WorkspaceFacts;
let compose: Compose;
beforeAll(async () => {
  facts = await loadWorkspaceFacts();
  [compose] = loadYamlFile<Compose>(path.join(ROOT, 'docker-compose.yml'));
});

const check = (doc: Compose) =>
  callEsm<string[]>(RULES, 'checkCompose', doc, { root: ROOT, composeDir: ROOT });
const edited = (edit: (doc: Compose) => void) => {
  const doc = JSON.parse(JSON.stringify(compose)) as Compose;
  edit(doc);
  return check(doc);
};

describe('docker-compose.yml', () => {
  it('passes the project rules', async () => {
    await expect(check(compose)).resolves.toEqual([]);
  });

  it('runs PostgreSQL 16 and NATS with JetStream, both with healthchecks', () => {
    expect(compose.services.postgres.image).toBe('postgres:16');
    expect(compose.services.nats.image).toMatch(/^nats:2/);
    expect(compose.services.nats.command).toContain('-js');
    expect(compose.services.postgres.healthcheck).toBeDefined();
    expect(compose.services.nats.healthcheck).toBeDefined();
  });

  it('builds every app from the Dockerfile, migrates each service first, publishes the gateway', () => {
    for (const app of facts.apps) {
      expect(compose.services[app].build?.args.APP).toBe(app);
      expect(compose.services[app].healthcheck?.test.join(' ')).toContain('/health/ready');
    }
    for (const svc of facts.migrated) {
      expect(compose.services[`${svc}-migrate`].command).toEqual([
        'node',
        'tools/prisma.mjs',
        'deploy',
        svc,
      ]);
      expect(compose.services[svc].depends_on?.[`${svc}-migrate`]).toEqual({
        condition: 'service_completed_successfully',
      });
    }
    expect(compose.services.gateway.ports).toContainEqual(expect.stringMatching(/:3000$/));
  });

  it('creates the database of every service of the design in the postgres init script', () => {
    const sql = readFileSync(path.join(ROOT, 'deploy/compose/init-databases.sql'), 'utf8');
    for (const db of [
      'crm_people',
      'crm_companies',
      'events',
      'bookings_invitations',
      'tenant_info',
    ])
      expect(sql).toMatch(new RegExp(`CREATE DATABASE ${db};`));
  });

  describe('the rules catch', () => {
    it('an app without a service', async () => {
      await expect(edited((d) => delete d.services['tenant-info'])).resolves.toContain(
        'app tenant-info (apps/tenant-info/src/main.ts) has no service',
      );
    });

    it('a build for an app that does not exist', async () => {
      await expect(
        edited((d) => (d.services['crm-people'].build!.args.APP = 'crm-peeple')),
      ).resolves.toContain(
        'crm-people: build.args.APP=crm-peeple names no app (apps/crm-peeple/src/main.ts)',
      );
    });

    it('a variable the app does not read, and a required one left out', async () => {
      const problems = await edited((d) => {
        const env = d.services['crm-people'].environment!;
        env.NATS_ULR = env.NATS_URL;
        delete env.DATABASE_URL;
      });
      expect(problems).toContain('crm-people: environment NATS_ULR is not read by crm-people');
      expect(problems).toContain('crm-people: environment DATABASE_URL is required by crm-people');
    });

    it('an app without INTERNAL_TOKEN or its file in production (it would refuse to start)', async () => {
      const problems = await edited((d) => {
        for (const app of ['crm-people', 'gateway']) {
          const env = d.services[app].environment!;
          delete env.INTERNAL_TOKEN;
          delete env.INTERNAL_TOKEN_FILE;
          env.NODE_ENV = 'production';
        }
      });
      expect(problems).toContain(
        'crm-people: environment INTERNAL_TOKEN is required by crm-people in production',
      );
      expect(problems).toContain(
        'gateway: environment INTERNAL_TOKEN is required by gateway in production',
      );
    });

    it('an app keeping sealed secrets without SECRETS_KEY or its file in production', async () => {
      const problems = await edited((d) => {
        for (const app of ['events-worker', 'bookings-invitations']) {
          delete d.services[app].environment!.SECRETS_KEY_FILE;
        }
      });
      expect(problems).toContain(
        'events-worker: environment SECRETS_KEY is required by events in production',
      );
      expect(problems).toContain(
        'bookings-invitations: environment SECRETS_KEY is required by bookings-invitations in production',
      );
    });

    it('a _FILE variable of a setting the app does not have', async () => {
      const problems = await edited((d) => {
        d.services['crm-people'].environment!.ADMIN_TOKN_FILE = '/run/crm-secrets/admin-token';
      });
      expect(problems).toContain(
        'crm-people: environment ADMIN_TOKN_FILE is not read by crm-people',
      );
    });

    it("a service on another service's database", async () => {
      await expect(
        edited((d) => {
          const env = d.services['tenant-info'].environment!;
          env.DATABASE_URL = env.DATABASE_URL.replace('/tenant_info', '/crm_people');
        }),
      ).resolves.toContain('tenant-info: DATABASE_URL should name database tenant_info');
    });

    it('a service started before its migrations ran', async () => {
      await expect(
        edited((d) => delete d.services['crm-people'].depends_on!['crm-people-migrate']),
      ).resolves.toContainEqual(
        expect.stringContaining('crm-people: should depend on a service running'),
      );
    });

    it('a mail worker of bookings-invitations missing, or in the wrong role', async () => {
      await expect(edited((d) => delete d.services['bookings-mail-worker'])).resolves.toContain(
        'app bookings-invitations runs bookings-mail-worker (PROCESS_ROLE=mail-worker): it has no service',
      );
      const problems = await edited((d) => {
        d.services['bookings-mail-worker'].environment!.PROCESS_ROLE = 'all';
        delete d.services['bookings-invitations'].environment!.PROCESS_ROLE;
      });
      expect(problems).toContain('bookings-mail-worker: PROCESS_ROLE should be mail-worker');
      expect(problems).toContain(
        'bookings-invitations: PROCESS_ROLE should be api (bookings-mail-worker runs the mail-worker)',
      );
      await expect(
        edited((d) => (d.services['bookings-mail-worker'].build!.args.APP = 'events')),
      ).resolves.toContain('bookings-mail-worker: runs app events; name the service after its app');
    });

    it('a worker of events missing, or in the wrong role', async () => {
      await expect(edited((d) => delete d.services['events-worker'])).resolves.toContain(
        'app events runs events-worker (PROCESS_ROLE=worker): it has no service',
      );
      const problems = await edited((d) => {
        d.services['events-worker'].environment!.PROCESS_ROLE = 'api';
        d.services.events.environment!.PROCESS_ROLE = 'all';
      });
      expect(problems).toContain('events-worker: PROCESS_ROLE should be worker');
      expect(problems).toContain(
        'events: PROCESS_ROLE should be api (events-worker runs the worker)',
      );
      await expect(
        edited((d) => {
          const env = d.services['events-worker'].environment!;
          env.DATABASE_URL = env.DATABASE_URL.replace('/events', '/crm_people');
        }),
      ).resolves.toContain('events-worker: DATABASE_URL should name database events');
    });

    it('a gateway that does not know where a service is', async () => {
      await expect(
        edited((d) => delete d.services.gateway.environment!.TENANT_INFO_URL),
      ).resolves.toContain('gateway: TENANT_INFO_URL is not set (service tenant-info exists)');
    });
  });

  it('runs the worker of events from the image, settings and dependencies of its API', () => {
    const api = compose.services.events;
    const worker = compose.services['events-worker'];
    expect(worker.image).toBe(api.image);
    expect(worker.build).toEqual(api.build);
    expect(worker.depends_on).toEqual(api.depends_on);
    // the same database, NATS, file storage (S3_PREFIX events) and internal token; its role
    const { PROCESS_ROLE, WORKER_NICE, ...workerRest } = worker.environment!;
    const { PROCESS_ROLE: apiRole, ...apiRest } = api.environment!;
    expect({ apiRole, PROCESS_ROLE, WORKER_NICE }).toEqual({
      apiRole: 'api',
      PROCESS_ROLE: 'worker',
      WORKER_NICE: '19',
    });
    expect(workerRest).toEqual(apiRest);
    expect(workerRest.S3_PREFIX).toBe('events');
    expect(worker.healthcheck?.test.join(' ')).toContain('/health/ready');
  });

  it('npm run compose:check passes (project rules; docker compose too when installed)', async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, ['tools/compose-check.mjs'], { cwd: ROOT }, (err, stdout) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, stdout }),
      ),
    );
    expect(stdout).toMatch(/docker-compose.yml: \d+ services, rules: ok/);
    expect(code).toBe(0);
  });
});
