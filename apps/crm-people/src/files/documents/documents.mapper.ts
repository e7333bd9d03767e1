import type { PersonDocument as DocumentRow } from '../../generated/prisma/client';
import type { PersonDocument } from './dto/person-document.dto';

export const documentUrl = (personId: string, id: string) =>
  `/v1/crm/people/${personId}/documents/${id}`;

export function toDocument(r: DocumentRow): PersonDocument {
  return {
    id: r.id,
    personId: r.personId,
    fileName: r.fileName,
    contentType: r.contentType,
    size: r.size,
    url: documentUrl(r.personId, r.id),
    createdBy: r.createdBy,
    dateCreated: r.dateCreated.toISOString(),
  };
}
