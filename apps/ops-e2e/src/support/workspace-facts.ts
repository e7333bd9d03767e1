import { runEsm, tool } from './esm';
import type { WorkspaceFacts } from './k8s-rules';

/**
 * What tools/dev/workspace.mjs finds in a repository (this one unless `root` names another):
 * apps, the env they read, migrations, the worker processes of services (WORKER_PROCESSES).
 */
export function loadWorkspaceFacts(root?: string): Promise<WorkspaceFacts> {
  return runEsm<WorkspaceFacts>(
    `const w = await import(${JSON.stringify(tool('tools/dev/workspace.mjs'))});
     const root = ${JSON.stringify(root)};
     const apps = w.listApps(root);
     const each = (fn) => Object.fromEntries(apps.map((a) => [a, fn(a)]));
     return {
       apps,
       env: each((a) => w.appEnvNames(a, root)),
       migrated: apps.filter((a) => w.hasMigrations(a, root)),
       runtimeEnv: [...w.RUNTIME_ENV],
       databaseName: each(w.databaseName),
       envPrefix: each(w.envPrefix),
       workers: w.workersOf(apps).map(({ app, name, role }) => ({ app, name, role })),
     };`,
  );
}
