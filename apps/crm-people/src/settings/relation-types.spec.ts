import en from '../i18n/en/relations.json';
import de from '../i18n/de/relations.json';
import { RELATION_TYPES, relationType, relationTypesOf } from './relation-types';

describe('relation types', () => {
  it('have unique identifiers and an inverse of the same category whose inverse is the type', () => {
    const ids = RELATION_TYPES.map((t) => t.identifier);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of RELATION_TYPES) {
      const inverse = relationType(t.inverse);
      expect(inverse).toBeDefined();
      expect(inverse!.category).toBe(t.category);
      expect(inverse!.inverse).toBe(t.identifier);
    }
  });

  it('include the pairs clients rely on', () => {
    expect(relationType('parent')).toEqual({
      identifier: 'parent',
      category: 'private',
      inverse: 'child',
    });
    expect(relationType('spouse')!.inverse).toBe('spouse');
    expect(relationType('manager')).toEqual({
      identifier: 'manager',
      category: 'business',
      inverse: 'employee',
    });
    expect(relationTypesOf('business')).toEqual(expect.arrayContaining(['colleague', 'assistant']));
    expect(relationTypesOf('private')).not.toContain('colleague');
  });

  it('have a name in English and German', () => {
    for (const t of RELATION_TYPES) {
      expect((en.types as Record<string, string>)[t.identifier]).toEqual(expect.any(String));
      expect((de.types as Record<string, string>)[t.identifier]).toEqual(expect.any(String));
    }
  });
});
