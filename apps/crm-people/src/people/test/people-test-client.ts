import { runSql, ServiceTestClient } from '@crm/testing';
import type { RunningService } from '../../test/service-harness';

// Calls of the people integration tests against a running crm-people (REST, GraphQL, SQL).

export function peopleTestClient(svc: RunningService) {
  const api = new ServiceTestClient(svc.url);
  const { restAs: rest, graphqlAs: gql } = api;

  /** One SQL statement on the service's database (to arrange data no route of P writes). */
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    runSql<T>(svc.databaseUrl, text, params);

  /** Creates a person through P3 and returns its id. */
  const person = async (tenant: string, body: Record<string, unknown>): Promise<string> => {
    const res = await rest(tenant, 'POST', '/people', body);
    if (res.status !== 201) throw new Error(`create person: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };

  /** Adds a business card row (cards have their own routes, not part of these tests). */
  const card = async (
    tenant: string,
    personId: string,
    fields: {
      business?: string;
      companyId?: string;
      isFavorite?: boolean;
      emails?: unknown[];
      phones?: unknown[];
      businessPositions?: unknown[];
      dateCreated?: string;
    } = {},
  ): Promise<string> => {
    const [row] = await sql<{ id: string }>(
      `INSERT INTO "BusinessCard" (id, "tenantId", "personId", business, "companyId", "isFavorite",
         emails, phones, "businessPositions", "dateCreated", "dateModified")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::timestamp, now()), now())
       RETURNING id::text`,
      [
        tenant,
        personId,
        fields.business ?? null,
        fields.companyId ?? null,
        fields.isFavorite ?? false,
        JSON.stringify(fields.emails ?? []),
        JSON.stringify(fields.phones ?? []),
        JSON.stringify(fields.businessPositions ?? []),
        fields.dateCreated ?? null,
      ],
    );
    return row.id;
  };

  return { api, rest, gql, sql, person, card };
}
