import { execFileSync } from 'node:child_process';
import { loadAll } from 'js-yaml';
import path from 'node:path';
import { ROOT } from './esm';
import type { Doc } from './k8s-rules';

export const K8S_BASE = path.join(ROOT, 'deploy/k8s/base');
export const K8S_OVERLAYS = path.join(ROOT, 'deploy/k8s/overlays');

function hasKubectl(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
/** kubectl on the PATH (Debian's package, or any): the kustomizations are rendered for real. */
export const KUBECTL = hasKubectl();

/** `kubectl kustomize <dir>`: every object the kustomization applies. */
export function kustomize(dir: string): Doc[] {
  const out = execFileSync('kubectl', ['kustomize', dir], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return (loadAll(out) as Doc[]).filter((d) => d != null);
}
