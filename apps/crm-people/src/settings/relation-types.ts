/**
 * The system relation types between people (R9). On person A, a relation `{ personId: B, type:
 * parent }` reads "B is A's parent"; B then holds the inverse `{ personId: A, type: child }`.
 * Names are translated (`relations.types.<identifier>`); identifiers are stable API values.
 */
export type RelationCategory = 'business' | 'private';
export const RELATION_CATEGORIES: readonly RelationCategory[] = ['business', 'private'];

export interface RelationTypeDef {
  identifier: string;
  category: RelationCategory;
  inverse: string;
}

const pair = (a: string, b: string, category: RelationCategory): RelationTypeDef[] =>
  a === b
    ? [{ identifier: a, category, inverse: a }]
    : [
        { identifier: a, category, inverse: b },
        { identifier: b, category, inverse: a },
      ];

export const RELATION_TYPES: readonly RelationTypeDef[] = [
  ...pair('parent', 'child', 'private'),
  ...pair('grandparent', 'grandchild', 'private'),
  ...pair('spouse', 'spouse', 'private'),
  ...pair('partner', 'partner', 'private'),
  ...pair('sibling', 'sibling', 'private'),
  ...pair('relative', 'relative', 'private'),
  ...pair('friend', 'friend', 'private'),
  ...pair('manager', 'employee', 'business'),
  ...pair('colleague', 'colleague', 'business'),
  ...pair('assistant', 'assisted-person', 'business'),
  ...pair('mentor', 'mentee', 'business'),
  ...pair('business-partner', 'business-partner', 'business'),
];

const BY_ID = new Map(RELATION_TYPES.map((t) => [t.identifier, t]));

export function relationType(identifier: string): RelationTypeDef | undefined {
  return BY_ID.get(identifier);
}

export function relationTypesOf(category: RelationCategory): string[] {
  return RELATION_TYPES.filter((t) => t.category === category).map((t) => t.identifier);
}

export const RELATION_TYPE_IDS = RELATION_TYPES.map((t) => t.identifier);
