import type { EntryView } from '../settings/settings-lookup.service';
import type { CompanyRelationView } from './dto/company-relation.output';
import type { RelationRecord } from './company-relations.repository';

/**
 * Record -> the relation seen from `companyId`. The type texts are looked up for all records at
 * once (SettingsLookupService.entries), so mapping never queries.
 */
export function toRelation(
  r: RelationRecord,
  companyId: string,
  types: Map<string, EntryView>,
): CompanyRelationView {
  const outgoing = r.fromCompanyId === companyId;
  const other = outgoing ? r.to : r.from;
  return {
    id: r.id,
    direction: outgoing ? 'outgoing' : 'incoming',
    company: { id: other.id, name: other.name },
    relationType: { id: r.relationTypeId, text: types.get(r.relationTypeId)?.text ?? null },
    fromCompanyId: r.fromCompanyId,
    toCompanyId: r.toCompanyId,
    since: r.since?.toISOString() ?? null,
    until: r.until?.toISOString() ?? null,
    note: r.note,
    dateCreated: r.dateCreated.toISOString(),
    dateModified: r.dateModified.toISOString(),
  };
}
