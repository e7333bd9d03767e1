import type { CompanyDocument as DocumentRow } from '../../generated/prisma/client';
import type { CompanyDocument } from './dto/company-document.output';

export const documentUrl = (companyId: string, id: string) =>
  `/v1/crm/companies/${companyId}/documents/${id}`;

export function toDocument(r: DocumentRow): CompanyDocument {
  return {
    id: r.id,
    companyId: r.companyId,
    fileName: r.fileName,
    contentType: r.contentType,
    size: r.size,
    url: documentUrl(r.companyId, r.id),
    createdBy: r.createdBy,
    dateCreated: r.dateCreated.toISOString(),
  };
}
