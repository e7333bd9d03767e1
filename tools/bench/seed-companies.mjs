// Seeds many companies into one tenant, fast: names built from word lists in SQL
// (generate_series), one office e-mail and one phone per company, over a single connection.
import pg from 'pg';

const PREFIX = ['Nord', 'Süd', 'West', 'Ost', 'Alpen', 'Rhein', 'Elb', 'Main', 'Donau', 'Spree'];
const CORE = [
  'bau',
  'tech',
  'werk',
  'logistik',
  'handel',
  'energie',
  'medien',
  'druck',
  'holz',
  'glas',
  'stahl',
  'soft',
  'data',
  'plan',
  'form',
  'licht',
  'wasser',
  'garten',
  'motor',
  'textil',
];
const SUFFIX = ['GmbH', 'AG', 'KG', 'GmbH & Co. KG', 'e.K.', 'UG'];

export const SEARCH_TERMS = CORE;

export async function seedCompanies(connectionString, tenantId, total) {
  const db = new pg.Client({ connectionString });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO "Company" (id, "tenantId", name, "customerNumber", website, "websiteDomain",
         "createdBy", "modifiedBy", "dateCreated", "dateModified")
       SELECT gen_random_uuid(), $1,
              ($2::text[])[1 + i % 10] || ($3::text[])[1 + (i / 10) % 20] || ' ' || (i % 997) || ' '
                || ($4::text[])[1 + i % 6],
              'K-' || lpad(i::text, 6, '0'),
              'https://www.firma-' || i || '.example',
              'firma-' || i || '.example',
              'bench', 'bench', now(), now()
       FROM generate_series(1, $5::int) AS i`,
      [tenantId, PREFIX, CORE, SUFFIX, total],
    );
    await db.query(
      `INSERT INTO "CompanyEmail" (id, "tenantId", "companyId", email, domain, "isFavorite", "dateCreated", "dateModified")
       SELECT gen_random_uuid(), "tenantId", id, 'info@' || "websiteDomain", "websiteDomain", true, now(), now()
       FROM "Company" WHERE "tenantId" = $1`,
      [tenantId],
    );
    await db.query(
      `INSERT INTO "CompanyPhone" (id, "tenantId", "companyId", type, number, "isFavorite", "dateCreated", "dateModified")
       SELECT gen_random_uuid(), "tenantId", id, 'office', '+4930' || lpad((row_number() OVER ())::text, 7, '0'), true, now(), now()
       FROM "Company" WHERE "tenantId" = $1`,
      [tenantId],
    );
    for (const table of ['Company', 'CompanyEmail', 'CompanyPhone']) {
      await db.query(`VACUUM ANALYZE "${table}"`);
    }
  } finally {
    await db.end();
  }
}
