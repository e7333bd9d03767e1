import type { CompanyRecord } from './companies.repository';
import { referencedEntryIds, toCompany } from './company.mapper';

const at = new Date('2026-01-02T03:04:05.000Z');
const record = (over: Partial<CompanyRecord> = {}): CompanyRecord => ({
  id: 'c1',
  tenantId: 't',
  name: 'ACME',
  nameAddition: null,
  website: null,
  websiteDomain: null,
  customerNumber: null,
  vatId: null,
  taxNumber: null,
  foundingDate: new Date('1998-09-04T00:00:00Z'),
  legalFormId: 'legal',
  industrySectorId: null,
  employeeCountId: null,
  customerCountId: null,
  referenceNumbers: [{ typeId: 'ref', number: 'HRB 1' }],
  socialMedias: [],
  lifecycleId: 'gone',
  lifecycleChanged: at,
  logo: null,
  logoDateModified: null,
  createdBy: null,
  modifiedBy: null,
  createdByUserId: null,
  modifiedByUserId: null,
  dateCreated: at,
  dateModified: at,
  note: null,
  tags: [],
  addresses: [],
  phones: [],
  emails: [
    {
      id: 'e1',
      tenantId: 't',
      companyId: 'c1',
      email: 'a@acme.example',
      domain: 'acme.example',
      emailTypeId: 'office',
      isFavorite: true,
      position: 0,
      dateCreated: at,
      dateModified: at,
    },
  ],
  ...over,
});

const entries = new Map([
  ['legal', { id: 'legal', text: 'GmbH', color: null, category: null }],
  ['ref', { id: 'ref', text: 'Commercial register', color: null, category: null }],
  ['office', { id: 'office', text: 'Office', color: null, category: null }],
]);

describe('company mapper', () => {
  it('collects every settings id a company refers to, once', () => {
    expect(referencedEntryIds(record({ customerCountId: 'legal' })).sort()).toEqual(
      ['gone', 'legal', 'office', 'ref'].sort(),
    );
  });

  it('maps entries to id and text; an entry no longer in its list keeps its id', () => {
    const c = toCompany(record(), entries);
    expect(c).toMatchObject({
      foundingDate: '1998-09-04',
      legalForm: { id: 'legal', text: 'GmbH' },
      industrySector: null,
      referenceNumbers: [{ type: { id: 'ref', text: 'Commercial register' }, number: 'HRB 1' }],
      lifecycle: { lifecycleId: 'gone', text: '', color: null, dateChanged: at.toISOString() },
      emails: [{ id: 'e1', emailType: { id: 'office', text: 'Office' } }],
      logo: null,
    });
  });

  it('links the logo when there is one, dated by its own change', () => {
    const logoAt = new Date('2026-02-03T00:00:00.000Z');
    expect(toCompany(record({ logo: 'k' }), entries).logo).toEqual({
      url: '/v1/crm/companies/c1/logo',
      dateModified: at.toISOString(),
    });
    expect(toCompany(record({ logo: 'k', logoDateModified: logoAt }), entries).logo).toEqual({
      url: '/v1/crm/companies/c1/logo',
      dateModified: logoAt.toISOString(),
    });
  });
});
