import type { I18nService } from 'nestjs-i18n';
import type { Language } from '@crm/i18n';
import { displayName } from '../people/person.mapper';
import { relationType } from '../settings/relation-types';
import type { RelationView } from './dto/relation.dto';
import type { RelationRecord } from './relations.repository';

/** Database record -> the relation resource of the API (the record's own side). */
export function toRelation(r: RelationRecord, i18n: I18nService, lang: Language): RelationView {
  const def = relationType(r.typeIdentifier);
  return {
    id: r.id,
    personId: r.toPersonId,
    type: { typeIdentifier: r.typeIdentifier, isFavorite: r.isFavorite },
    category: def?.category ?? null,
    // a type no longer in the catalogue still shows, with its identifier and no name
    typeName: def ? (i18n.t(`relations.types.${def.identifier}`, { lang }) as string) : null,
    name: displayName(r.to) || null,
  };
}
