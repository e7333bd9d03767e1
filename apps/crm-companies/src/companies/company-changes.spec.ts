import { companyChanges, newCompanyScalars } from './company-changes';

describe('newCompanyScalars', () => {
  it('stores absent fields as null or [] and derives websiteDomain', () => {
    expect(newCompanyScalars({ name: 'ACME' })).toEqual({
      name: 'ACME',
      nameAddition: null,
      website: null,
      websiteDomain: null,
      customerNumber: null,
      vatId: null,
      taxNumber: null,
      foundingDate: null,
      legalFormId: null,
      industrySectorId: null,
      employeeCountId: null,
      customerCountId: null,
      referenceNumbers: [],
      socialMedias: [],
    });
    const full = newCompanyScalars({
      name: 'ACME',
      website: 'https://www.ACME.example',
      foundingDate: '1998-09-04',
      legalForm: { id: 'l' },
      referenceNumbers: [{ type: { id: 't' }, number: 'HRB 1' }],
      socialMedias: [{ type: 'x', link: 'https://x.example' }],
    });
    expect(full).toMatchObject({
      website: 'https://www.ACME.example',
      websiteDomain: 'acme.example',
      foundingDate: new Date('1998-09-04T00:00:00Z'),
      legalFormId: 'l',
      referenceNumbers: [{ typeId: 't', number: 'HRB 1' }],
      socialMedias: [{ type: 'x', link: 'https://x.example' }],
    });
  });
});

describe('companyChanges', () => {
  it('changes nothing for an empty body', () => {
    expect(companyChanges({})).toEqual({ scalars: {} });
  });

  it('keeps absent fields, clears null ones, replaces lists', () => {
    expect(
      companyChanges({
        vatId: null,
        website: null,
        legalForm: null,
        employeeCount: { id: 'e' },
        socialMedias: null,
        lifecycle: null,
        tags: [],
      }),
    ).toEqual({
      scalars: {
        vatId: null,
        website: null,
        websiteDomain: null,
        legalFormId: null,
        employeeCountId: 'e',
        socialMedias: [],
      },
      lifecycleId: null,
      tags: [],
    });
  });

  it('follows the website with its domain and reads the lifecycle id', () => {
    expect(
      companyChanges({ name: 'N', website: 'www.new.example', lifecycle: { lifecycleId: 'l' } }),
    ).toEqual({
      scalars: { name: 'N', website: 'www.new.example', websiteDomain: 'new.example' },
      lifecycleId: 'l',
    });
    // a lifecycle object without an id changes nothing
    expect(companyChanges({ lifecycle: {} }).lifecycleId).toBeUndefined();
  });
});
