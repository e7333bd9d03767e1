/**
 * Every NATS subject, named `<service>.<aggregate>.<verb>`. Sender and receiver import the same
 * constant and the payload class beside it (contracts/), so a rename breaks the build, not prod.
 */
export const Subjects = {
  tenantInfo: {
    /** request: VerifyApiKeyRequest -> VerifyApiKeyReply */
    verifyApiKey: 'tenant-info.api-keys.verify',
    /** request: CreateTenantRequest -> TenantSummary */
    createTenant: 'tenant-info.tenants.create',
    /** request: IssueApiKeyRequest -> IssuedApiKey */
    issueApiKey: 'tenant-info.api-keys.issue',
    /** request: RevokeApiKeyRequest -> RevokedApiKey */
    revokeApiKey: 'tenant-info.api-keys.revoke',
    /** request: {} -> TariffSummary[] */
    listTariffs: 'tenant-info.tariffs.list',
    /** request: SetTenantTariffRequest -> TenantSummary */
    setTenantTariff: 'tenant-info.tenants.set-tariff',
    /** event: AccessChangedEvent (a key revoked or a tariff changed: caches must forget) */
    accessChanged: 'tenant-info.access.changed',
  },
  crmPeople: {
    /** request: MoveTouchpointsRequest -> { moved: number } */
    moveTouchpoints: 'crm-people.touchpoints.move',
    /** request: PeopleExistRequest -> PeopleExistReply */
    peopleExist: 'crm-people.people.exist',
  },
  crmCompanies: {
    /** request: CompanyExistsRequest -> CompanyExistsReply */
    companyExists: 'crm-companies.companies.exists',
  },
} as const;

/** The queue group of a service: replicas share it, so each command is handled once. */
export const queueGroup = (service: string) => `${service}-workers`;
