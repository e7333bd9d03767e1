/** The required headers of a call for `tenantId`, with optional extras. */
export function tenantHeaders(
  tenantId: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    'X-Integration-Name': 'test-suite',
    'X-Integration-Provider': 'crm-tests',
    'X-Service-TenantId': tenantId,
    'Content-Type': 'application/json',
    ...extra,
  };
}

/** The headers of `tenantHeaders` without the JSON content type: fetch sets the multipart one. */
export function uploadHeaders(
  tenantId: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const { 'Content-Type': _json, ...rest } = tenantHeaders(tenantId);
  return { ...rest, ...extra };
}
