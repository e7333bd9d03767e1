import { toTariff, toTariffSummary } from './tariff.mapper';
import type { TariffRecord } from './tariffs.repository';

const record: TariffRecord = {
  id: 'professional',
  name: 'Professional',
  description: 'CRM and events',
  position: 2,
  modules: [
    {
      tariffId: 'professional',
      module: 'tenant-info',
      name: 'Tenant information',
      functions: ['tariff'],
    },
    { tariffId: 'professional', module: 'events', name: 'Event management', functions: ['events'] },
    { tariffId: 'professional', module: 'crm', name: 'CRM', functions: ['people', 'companies'] },
  ],
};

describe('tariff mapping', () => {
  it('lists modules in MODULES order with bare function keys for NATS', () => {
    expect(toTariffSummary(record)).toEqual({
      id: 'professional',
      name: 'Professional',
      description: 'CRM and events',
      modules: [
        { module: 'crm', name: 'CRM', functions: ['people', 'companies'] },
        { module: 'events', name: 'Event management', functions: ['events'] },
        { module: 'tenant-info', name: 'Tenant information', functions: ['tariff'] },
      ],
    });
  });

  it('translates names by key and falls back to the stored text', () => {
    const de: Record<string, string> = {
      'tenantInfo.tariffs.professional.description': 'CRM und Veranstaltungen',
      'tenantInfo.modules.events': 'Veranstaltungsmanagement',
      'tenantInfo.functions.people': 'Personen',
    };
    const tariff = toTariff(record, (key, fallback) => de[key] ?? fallback);
    expect(tariff.name).toBe('Professional');
    expect(tariff.description).toBe('CRM und Veranstaltungen');
    expect(tariff.modules.map((m) => [m.module, m.name])).toEqual([
      ['crm', 'CRM'],
      ['events', 'Veranstaltungsmanagement'],
      ['tenant-info', 'Tenant information'],
    ]);
    expect(tariff.modules[0].functions).toEqual([
      { key: 'people', name: 'Personen' },
      { key: 'companies', name: 'companies' },
    ]);
  });

  it('keeps a missing description null', () => {
    expect(toTariff({ ...record, description: null }, (_k, f) => f).description).toBeNull();
  });
});
