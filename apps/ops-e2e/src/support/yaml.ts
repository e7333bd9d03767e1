import { readFileSync } from 'node:fs';
import { CORE_SCHEMA, loadAll, mergeTag } from 'js-yaml';

// js-yaml 5 reads merge keys (`<<: *anchor`, used by docker-compose.yml) only when asked to.
const schema = CORE_SCHEMA.withTags(mergeTag);

/** Every document of a YAML file (`---` separated), empty ones left out. */
export function loadYamlFile<T = Record<string, unknown>>(file: string): T[] {
  return (loadAll(readFileSync(file, 'utf8'), { schema }) as T[]).filter((d) => d != null);
}
