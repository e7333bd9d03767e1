import { AppException } from '@crm/errors';

export interface SortField<F extends string = string> {
  field: F;
  direction: 'asc' | 'desc';
}

/**
 * Parses `sort=lastname,-dateCreated` against the fields a list allows; an unknown field is a 400
 * naming it. `fallback` applies when no sort is given; `tieBreaker` keeps pages stable.
 */
export function parseSort<F extends string>(
  sort: string | undefined,
  allowed: readonly F[],
  fallback: SortField<F>[],
  tieBreaker?: F,
): SortField<F>[] {
  const parts = (sort ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const fields: SortField<F>[] = parts.length
    ? parts.map((part) => {
        const desc = part.startsWith('-');
        const name = (desc || part.startsWith('+') ? part.slice(1) : part) as F;
        if (!allowed.includes(name)) {
          throw AppException.invalidField('sort', 'unknownSortField', {
            value: name,
            allowed: allowed.join(', '),
          });
        }
        return { field: name, direction: desc ? 'desc' : 'asc' };
      })
    : [...fallback];
  if (tieBreaker && !fields.some((f) => f.field === tieBreaker))
    fields.push({ field: tieBreaker, direction: 'asc' });
  return fields;
}

/** Prisma's orderBy form of parsed sort fields. */
export function toOrderBy<F extends string>(fields: SortField<F>[]): Record<F, 'asc' | 'desc'>[] {
  return fields.map((f) => ({ [f.field]: f.direction }) as Record<F, 'asc' | 'desc'>);
}
