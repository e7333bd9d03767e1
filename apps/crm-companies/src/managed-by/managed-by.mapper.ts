import type { CompanyManager } from './dto/company-manager.output';
import type { ManagerRecord } from './managed-by.repository';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Database row -> the CompanyManager resource (the role as `{ id }`: its text is crm-people's). */
export function toCompanyManager(r: ManagerRecord): CompanyManager {
  return {
    id: r.id,
    personId: r.personId,
    managerRole: { id: r.managerRoleId },
    since: iso(r.since),
    until: iso(r.until),
    createdBy: r.createdBy,
    modifiedBy: r.modifiedBy,
    dateCreated: r.dateCreated.toISOString(),
    dateModified: r.dateModified.toISOString(),
  };
}
