import { ApiProperty, ApiPropertyOptions, OmitType, PickType } from '@nestjs/swagger';
import {
  API_KEY_SCOPES,
  CreateTenantRequest,
  IssueApiKeyRequest,
  IssuedApiKey,
  RevokedApiKey,
  SetTenantTariffRequest,
  TariffSummary,
  TenantContactInput,
  TenantSummary,
} from '@crm/messaging';

/**
 * The bodies are the NATS contract classes of @crm/messaging (their validation rules apply as
 * they are); the gateway only adds the OpenAPI description of their fields here.
 */
function describe(target: abstract new () => object, fields: Record<string, ApiPropertyOptions>) {
  for (const [name, options] of Object.entries(fields))
    ApiProperty(options)(target.prototype, name);
}

const text = (description: string, extra: ApiPropertyOptions = {}): ApiPropertyOptions =>
  ({ type: String, description, ...extra }) as ApiPropertyOptions;
const optionalText = (description: string, extra: ApiPropertyOptions = {}) =>
  text(description, { required: false, ...extra } as ApiPropertyOptions);

export class TenantContactBody extends TenantContactInput {}
describe(TenantContactBody, {
  companyName: optionalText('Company name', { maxLength: 200 }),
  contactPerson: optionalText('Contact person', { maxLength: 200 }),
  email: optionalText('E-mail address', { format: 'email', maxLength: 320 }),
  phone: optionalText('Phone number', { maxLength: 50 }),
  street: optionalText('Street and number', { maxLength: 200 }),
  zip: optionalText('Postal code', { maxLength: 20 }),
  city: optionalText('City', { maxLength: 200 }),
  country: optionalText('Country', { maxLength: 100 }),
  website: optionalText('Website URL', { format: 'uri', maxLength: 500 }),
});

export class CreateTenantBody extends CreateTenantRequest {}
describe(CreateTenantBody, {
  id: text('Tenant id, as clients send it in X-Service-TenantId', {
    pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$',
    example: 'acme',
  }),
  name: text('Name of the tenant', { maxLength: 200, example: 'ACME Events Ltd' }),
  contact: { type: () => TenantContactBody, required: false },
  tariffId: optionalText('Tariff to start on; the default tariff when absent'),
});

export class IssueApiKeyBody extends OmitType(IssueApiKeyRequest, ['tenantId'] as const) {}
describe(IssueApiKeyBody, {
  name: text('What the key is for (shown in lists, never secret)', {
    maxLength: 200,
    example: 'website integration',
  }),
  key: optionalText('A fixed key value (24-200 of A-Z a-z 0-9 _ -); generated when absent', {
    pattern: '^[A-Za-z0-9_-]{24,200}$',
  }),
  scopes: {
    type: String,
    isArray: true,
    enum: [...API_KEY_SCOPES],
    required: false,
    minItems: 1,
    uniqueItems: true,
    description:
      'What the key may do per module: `<module>:read` or `<module>:write` (write includes ' +
      'read). Every scope when absent',
    example: ['crm:read', 'events:write'],
  },
  expiresAt: optionalText(
    'When the key stops working (ISO 8601 instant, in the future); never when absent',
    { format: 'date-time', example: '2027-01-01T00:00:00Z' },
  ),
});

export class SetTariffBody extends PickType(SetTenantTariffRequest, ['tariffId'] as const) {}
describe(SetTariffBody, { tariffId: text('Id of the tariff (see GET /v1/admin/tariffs)') });

export class TenantSummaryDto implements TenantSummary {
  id!: string;
  name!: string;
  contact!: TenantContactBody;
  tariffId!: string | null;
  dateCreated!: string;
}
describe(TenantSummaryDto, {
  id: text('Tenant id'),
  name: text('Name'),
  contact: { type: () => TenantContactBody },
  tariffId: text('Current tariff', { nullable: true }),
  dateCreated: text('Creation time', { format: 'date-time' }),
});

export class IssuedApiKeyDto implements IssuedApiKey {
  id!: string;
  tenantId!: string;
  name!: string;
  prefix!: string;
  key!: string;
  scopes!: string[];
  expiresAt!: string | null;
  dateCreated!: string;
}
describe(IssuedApiKeyDto, {
  id: text('Key id (the caller id services see in X-Caller-Id)', { format: 'uuid' }),
  tenantId: text('Tenant the key belongs to'),
  name: text('Name'),
  prefix: text('First characters of the key, to recognise it'),
  key: text('The key itself: shown once, stored only as a hash'),
  scopes: {
    type: String,
    isArray: true,
    enum: [...API_KEY_SCOPES],
    description: 'What the key may do (write includes read of the same module)',
  },
  expiresAt: text('When the key stops working; null: never', {
    format: 'date-time',
    nullable: true,
  }),
  dateCreated: text('Creation time', { format: 'date-time' }),
});

export class RevokedApiKeyDto implements RevokedApiKey {
  id!: string;
  tenantId!: string;
  revokedAt!: string;
}
describe(RevokedApiKeyDto, {
  id: text('Key id', { format: 'uuid' }),
  tenantId: text('Tenant the key belonged to'),
  revokedAt: text('Revocation time', { format: 'date-time' }),
});

export class TariffModuleDto {
  module!: string;
  name!: string;
  functions!: string[];
}
describe(TariffModuleDto, {
  module: text('Module key: crm, events, bookings or tenant-info'),
  name: text('Display name'),
  functions: { type: [String], description: 'Functions of the module' },
});

export class TariffSummaryDto implements TariffSummary {
  id!: string;
  name!: string;
  description!: string | null;
  modules!: TariffModuleDto[];
}
describe(TariffSummaryDto, {
  id: text('Tariff id'),
  name: text('Name'),
  description: text('Description', { nullable: true }),
  modules: { type: () => [TariffModuleDto], description: 'Modules with their functions' },
});
