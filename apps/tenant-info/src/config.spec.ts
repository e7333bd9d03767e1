import { ConfigError, loadConfig } from '@crm/config';
import { TenantInfoConfig } from './config';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/tenant_info';

describe('TenantInfoConfig', () => {
  it('defaults to port 3005 and the complete tariff', () => {
    const config = loadConfig(TenantInfoConfig, { DATABASE_URL });
    expect(config.PORT).toBe(3005);
    expect(config.DEFAULT_TARIFF_ID).toBe('complete');
  });

  it('refuses a malformed default tariff, naming the variable', () => {
    expect(() =>
      loadConfig(TenantInfoConfig, { DATABASE_URL, DEFAULT_TARIFF_ID: 'No Such!' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig(TenantInfoConfig, { DATABASE_URL, DEFAULT_TARIFF_ID: 'No Such!' }),
    ).toThrow(/DEFAULT_TARIFF_ID/);
  });
});
