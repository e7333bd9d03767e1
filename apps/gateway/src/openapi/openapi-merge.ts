import type { OpenAPIObject } from '@nestjs/swagger';

export interface ServiceDocument {
  service: string;
  doc: OpenAPIObject;
}

type ComponentMap = Record<string, Record<string, unknown>>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** JSON with sorted keys, so equal components compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}

const pascal = (service: string) =>
  service
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

/** Rewrites `$ref`s of renamed components in place. */
function rewriteRefs(node: unknown, renames: Map<string, string>): void {
  if (Array.isArray(node)) {
    node.forEach((n) => rewriteRefs(n, renames));
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(obj)) {
    if (key === '$ref' && typeof value === 'string' && renames.has(value)) {
      obj[key] = renames.get(value);
    } else rewriteRefs(value, renames);
  }
}

/**
 * Makes the operationIds of a path item unique in the merged description (OpenAPI requires it;
 * generated clients name their methods by them): one already taken (two services'
 * `DocumentsController_list`) gets the service's name in front, like a clashing component.
 */
function uniqueOperationIds(item: unknown, taken: Set<string>, prefix: string): void {
  for (const [method, operation] of Object.entries((item ?? {}) as Record<string, unknown>)) {
    if (!HTTP_METHODS.includes(method) || !operation || typeof operation !== 'object') continue;
    const op = operation as { operationId?: unknown };
    if (typeof op.operationId !== 'string') continue;
    let id = op.operationId;
    if (taken.has(id)) {
      id = `${prefix}${op.operationId}`;
      for (let i = 2; taken.has(id); i++) id = `${prefix}${op.operationId}${i}`;
      op.operationId = id;
    }
    taken.add(id);
  }
}

/**
 * One description of the whole API: the gateway's own (admin) document plus every service's
 * paths, components and tags. Components of the same name but different content (two services'
 * `Address`, say) are kept apart by prefixing the later one with its service name, and so are
 * operationIds used twice.
 */
export function mergeOpenApi(
  own: OpenAPIObject,
  parts: ServiceDocument[],
  warn: (message: string) => void = () => undefined,
): OpenAPIObject {
  const merged = structuredClone(own);
  merged.paths ??= {};
  const components = (merged.components ??= {}) as ComponentMap;
  const tags = new Map((merged.tags ?? []).map((t) => [t.name, t]));
  const operationIds = new Set<string>();
  for (const item of Object.values(merged.paths)) uniqueOperationIds(item, operationIds, '');

  for (const part of parts) {
    const doc = structuredClone(part.doc);
    const theirs = (doc.components ?? {}) as ComponentMap;
    const renames = new Map<string, string>();
    for (const [kind, entries] of Object.entries(theirs)) {
      const ours = (components[kind] ??= {});
      for (const [name, value] of Object.entries(entries ?? {})) {
        if (!(name in ours) || canonical(ours[name]) === canonical(value)) continue;
        if (kind === 'securitySchemes') continue; // one scheme per name: the gateway's wins
        let renamed = `${pascal(part.service)}${name}`;
        for (let i = 2; renamed in ours || renamed in entries; i++)
          renamed = `${pascal(part.service)}${name}${i}`;
        renames.set(`#/components/${kind}/${name}`, `#/components/${kind}/${renamed}`);
        entries[renamed] = value;
        delete entries[name];
      }
    }
    if (renames.size) rewriteRefs(doc, renames);
    for (const [kind, entries] of Object.entries((doc.components ?? {}) as ComponentMap)) {
      const ours = (components[kind] ??= {});
      for (const [name, value] of Object.entries(entries ?? {}))
        if (!(name in ours)) ours[name] = value;
    }

    for (const item of Object.values(doc.paths ?? {}))
      uniqueOperationIds(item, operationIds, pascal(part.service));
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const existing = merged.paths[path] as Record<string, unknown> | undefined;
      if (!existing) {
        merged.paths[path] = item;
        continue;
      }
      for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
        if (!HTTP_METHODS.includes(method)) continue;
        if (method in existing)
          warn(
            `${part.service}: ${method.toUpperCase()} ${path} is described twice; kept the first`,
          );
        else existing[method] = operation;
      }
    }
    for (const tag of doc.tags ?? []) if (!tags.has(tag.name)) tags.set(tag.name, tag);
  }
  merged.tags = [...tags.values()];
  return merged;
}
