import { runSql, ServiceTestClient } from '@crm/testing';
import type { RunningService } from '../../test/service-harness';

// Calls of the companies integration tests against a running crm-companies (REST, GraphQL, SQL).

/** System entries (settings/system-entries.ts): fixed ids every tenant has. */
const sys = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`;
export const SYS = {
  lead: sys(101),
  prospect: sys(102),
  customer: sys(103),
  upTo9: sys(201),
  upTo10: sys(301),
  limitedCompany: sys(403),
  stockCorporation: sys(404),
  commercialRegister: sys(501),
  duns: sys(502),
  emailOffice: sys(701),
} as const;

export function companyTestClient(svc: RunningService) {
  const api = new ServiceTestClient(svc.url);
  const { restAs: rest, graphqlAs: gql } = api;

  /** One SQL statement on the service's database (to arrange or inspect rows directly). */
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    runSql<T>(svc.databaseUrl, text, params);

  /** Creates a company through C4 and returns its id. */
  const company = async (tenant: string, body: Record<string, unknown>): Promise<string> => {
    const res = await rest(tenant, 'POST', '/companies', body);
    if (res.status !== 201) throw new Error(`create company: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };

  /** A tenant entry of a company settings list (the settings routes are not part of these tests). */
  const entry = async (
    tenant: string,
    list: string,
    text: string,
    color: string | null = null,
  ): Promise<string> => {
    const [row] = await sql<{ id: string }>(
      `INSERT INTO "CompanySettingsEntry" (id, "tenantId", list, text, color)
       VALUES (gen_random_uuid(), $1, $2::"CompanySettingsList", $3, $4) RETURNING id::text`,
      [tenant, list, text, color],
    );
    return row.id;
  };

  /** An e-mail row of a company (C23 is another helper's route). */
  const email = async (
    tenant: string,
    companyId: string,
    address: string,
    fields: { emailTypeId?: string; position?: number; isFavorite?: boolean } = {},
  ) => {
    await sql(
      `INSERT INTO "CompanyEmail" (id, "tenantId", "companyId", email, domain, "emailTypeId",
         "isFavorite", position, "dateModified")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, now())`,
      [
        tenant,
        companyId,
        address,
        address.split('@')[1].toLowerCase(),
        fields.emailTypeId ?? null,
        fields.isFavorite ?? false,
        fields.position ?? 0,
      ],
    );
  };

  /** Counts rows of a table matching a condition (for "nothing changed" checks). */
  const count = async (table: string, where = 'true', params: unknown[] = []) =>
    Number(
      (await sql<{ n: string }>(`SELECT count(*) AS n FROM "${table}" WHERE ${where}`, params))[0]
        .n,
    );

  return { api, rest, gql, sql, company, entry, email, count };
}

/** [field, rule] pairs of an error envelope, for compact assertions. */
export const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);
