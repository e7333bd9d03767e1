import { runEsm, tool } from './esm';
import type { WorkspaceFacts } from './k8s-rules';

/** What tools/dev/workspace.mjs finds in the repository: apps, the env they read, migrations. */
export function loadWorkspaceFacts(): Promise<WorkspaceFacts> {
  return runEsm<WorkspaceFacts>(
    `const w = await import(${JSON.stringify(tool('tools/dev/workspace.mjs'))});
     const apps = w.listApps();
     const each = (fn) => Object.fromEntries(apps.map((a) => [a, fn(a)]));
     return {
       apps,
       env: each((a) => w.appEnvNames(a)),
       migrated: apps.filter((a) => w.hasMigrations(a)),
       runtimeEnv: [...w.RUNTIME_ENV],
       databaseName: each(w.databaseName),
       envPrefix: each(w.envPrefix),
     };`,
  );
}
