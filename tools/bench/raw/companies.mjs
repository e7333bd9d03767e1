// Baselines of scenario 5: crm-companies' create (C4) and read (C2) of a company as plain SQL on
// its database, answering the same Company JSON. One statement each (a transaction by itself).
import { envelope, runCreate } from '../raw-baseline.mjs';
import { iso } from './people.mjs';

// Create: the settings entries the body names by id checked against their lists (one missing:
// nothing is written, 400), the tags named by text found ignoring case or created at the end of
// the list (INSERT ... ON CONFLICT DO NOTHING, no lock), then the company, its CompanyTag rows and
// its first CompanyLifecycleHistory row. A tag a concurrent request created first: see runCreate.
const CREATE_SQL = `
WITH ref AS (
  SELECT e.id, e.text, e.color
  FROM unnest($19::"CompanySettingsList"[], $20::uuid[]) AS r(list, id)
  JOIN "CompanySettingsEntry" e ON e."tenantId" = $1 AND e.list = r.list AND e.id = r.id
), want AS (
  SELECT w.text, w.ord FROM unnest($21::text[]) WITH ORDINALITY AS w(text, ord)
), found AS (
  SELECT DISTINCT ON (w.ord) w.ord, e.id, e.text, e.color
  FROM want w JOIN "CompanySettingsEntry" e
    ON e."tenantId" = $1 AND e.list = 'TAGS' AND lower(e.text) = lower(w.text)
  ORDER BY w.ord, e."dateCreated"
), created AS (
  INSERT INTO "CompanySettingsEntry" (id, "tenantId", list, text, position)
  SELECT gen_random_uuid(), $1, 'TAGS', w.text,
    (SELECT coalesce(max(position) + 1, 0) FROM "CompanySettingsEntry"
     WHERE "tenantId" = $1 AND list = 'TAGS') + row_number() OVER (ORDER BY w.ord) - 1
  FROM want w WHERE w.ord NOT IN (SELECT ord FROM found)
  ORDER BY lower(w.text) -- one order of row locks: concurrent creates cannot deadlock
  ON CONFLICT DO NOTHING
  RETURNING id, text, color
), tag AS (
  SELECT w.ord, coalesce(f.id, c.id) AS id, coalesce(f.text, c.text) AS text,
         coalesce(f.color, c.color) AS color
  FROM want w LEFT JOIN found f ON f.ord = w.ord LEFT JOIN created c ON lower(c.text) = lower(w.text)
), lost AS (
  SELECT FROM tag WHERE id IS NULL
), company AS (
  INSERT INTO "Company" (id, "tenantId", name, "nameAddition", website, "websiteDomain",
    "customerNumber", "vatId", "taxNumber", "foundingDate", "legalFormId", "industrySectorId",
    "employeeCountId", "customerCountId", "referenceNumbers", "socialMedias", "lifecycleId",
    "lifecycleChanged", "createdBy", "modifiedBy", "createdByUserId", "modifiedByUserId",
    "dateCreated", "dateModified")
  SELECT gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9::date, $10::uuid, $11::uuid,
    $12::uuid, $13::uuid, $14::jsonb, $15::jsonb, $16::uuid,
    CASE WHEN $16::uuid IS NULL THEN NULL ELSE now() END, $17, $17, $18::uuid, $18::uuid,
    now(), now()
  WHERE (SELECT count(*) FROM ref) = cardinality($20::uuid[]) AND NOT EXISTS (SELECT FROM lost)
  RETURNING *
), company_tag AS (
  INSERT INTO "CompanyTag" ("tenantId", "companyId", "entryId", position)
  SELECT $1, c.id, t.id, t.ord - 1 FROM company c, tag t
), history AS (
  INSERT INTO "CompanyLifecycleHistory" (id, "tenantId", "companyId", "lifecycleId", "dateChanged")
  SELECT gen_random_uuid(), $1, c.id, c."lifecycleId", c."lifecycleChanged"
  FROM company c WHERE c."lifecycleId" IS NOT NULL
)
SELECT EXISTS (SELECT FROM lost) AS lost, c.*,
  (SELECT json_agg(t ORDER BY t.ord) FROM tag t) AS tags,
  (SELECT json_object_agg(id, json_build_object('text', text, 'color', color)) FROM ref) AS entries
FROM (VALUES (1)) AS one LEFT JOIN company c ON true`;

// Read: the company with what the service joins (note, tags with their entry, addresses, phones,
// e-mails with their type) and the texts of the entries it names (the service's second query).
const READ_SQL = `
SELECT c.*,
  (SELECT row_to_json(n) FROM "CompanyNote" n WHERE n."companyId" = c.id) AS note,
  (SELECT json_agg(json_build_object('id', t."entryId", 'text', e.text, 'color', e.color)
     ORDER BY t.position, t."entryId")
   FROM "CompanyTag" t JOIN "CompanySettingsEntry" e ON e.id = t."entryId"
   WHERE t."companyId" = c.id) AS tags,
  (SELECT json_agg(a ORDER BY a.position, a."dateCreated") FROM "CompanyAddress" a
   WHERE a."companyId" = c.id) AS addresses,
  (SELECT json_agg(p ORDER BY p.position, p."dateCreated") FROM "CompanyPhone" p
   WHERE p."companyId" = c.id) AS phones,
  (SELECT json_agg(json_build_object('id', m.id, 'email', m.email, 'emailType',
     CASE WHEN e.id IS NULL THEN NULL ELSE json_build_object('id', e.id, 'text', e.text) END,
     'isFavorite', m."isFavorite") ORDER BY m.position, m."dateCreated")
   FROM "CompanyEmail" m
   LEFT JOIN "CompanySettingsEntry" e ON e."tenantId" = m."tenantId" AND e.id = m."emailTypeId"
   WHERE m."companyId" = c.id) AS emails,
  (SELECT json_object_agg(e.id, json_build_object('text', e.text, 'color', e.color))
   FROM "CompanySettingsEntry" e
   WHERE e."tenantId" = c."tenantId" AND e.id = ANY(
     ARRAY[c."lifecycleId", c."legalFormId", c."industrySectorId", c."employeeCountId",
           c."customerCountId"]
     || ARRAY(SELECT (r->>'typeId')::uuid FROM jsonb_array_elements(c."referenceNumbers") r))
  ) AS entries
FROM "Company" c WHERE c."tenantId" = $1 AND c.id = $2`;

const isoDate = (v) => v ?? null;

/** The row of either statement -> the Company resource, as crm-companies' mapper builds it. */
function toCompany(c) {
  const entries = c.entries ?? {};
  const entry = (id) => (id ? { id, text: entries[id]?.text ?? '' } : null);
  return {
    id: c.id,
    name: c.name,
    nameAddition: c.nameAddition,
    website: c.website,
    websiteDomain: c.websiteDomain,
    customerNumber: c.customerNumber,
    vatId: c.vatId,
    taxNumber: c.taxNumber,
    foundingDate: isoDate(c.foundingDate),
    legalForm: entry(c.legalFormId),
    industrySector: entry(c.industrySectorId),
    employeeCount: entry(c.employeeCountId),
    customerCount: entry(c.customerCountId),
    referenceNumbers: c.referenceNumbers.map((r) => ({ type: entry(r.typeId), number: r.number })),
    socialMedias: c.socialMedias.map((s) => ({ type: s.type, link: s.link })),
    lifecycle: c.lifecycleId
      ? {
          lifecycleId: c.lifecycleId,
          text: entries[c.lifecycleId]?.text ?? '',
          color: entries[c.lifecycleId]?.color ?? null,
          dateChanged: iso(c.lifecycleChanged),
        }
      : null,
    tags: (c.tags ?? []).map((t) => ({ id: t.id, text: t.text, color: t.color })),
    note: c.note
      ? {
          note: c.note.note,
          createdBy: c.note.createdBy,
          modifiedBy: c.note.modifiedBy,
          createdByUserId: c.note.createdByUserId,
          modifiedByUserId: c.note.modifiedByUserId,
          dateCreated: iso(c.note.dateCreated),
          dateModified: iso(c.note.dateModified),
        }
      : null,
    addresses: (c.addresses ?? []).map((a) => ({
      id: a.id,
      isFavorite: a.isFavorite,
      type: a.type,
      country: a.country,
      countryCode: a.countryCode,
      street: a.street,
      streetAdditional: a.streetAdditional,
      zip: a.zip,
      city: a.city,
      postboxNumber: a.postboxNumber,
      federalState: a.federalState,
      cityDistrict: a.cityDistrict,
      isPostOfficeBox: a.isPostOfficeBox,
      longitude: a.longitude,
      latitude: a.latitude,
    })),
    phones: (c.phones ?? []).map((p) => ({
      id: p.id,
      type: p.type,
      number: p.number,
      label: p.label,
      isFavorite: p.isFavorite,
    })),
    emails: c.emails ?? [],
    logo: c.logo
      ? {
          url: `/v1/crm/companies/${c.id}/logo`,
          dateModified: iso(c.logoDateModified ?? c.dateModified),
        }
      : null,
    createdBy: c.createdBy,
    modifiedBy: c.modifiedBy,
    createdByUserId: c.createdByUserId,
    modifiedByUserId: c.modifiedByUserId,
    dateCreated: iso(c.dateCreated),
    dateModified: iso(c.dateModified),
  };
}

/** websiteDomain as the service derives it: the host, lower-cased, without `www.`. */
function websiteDomain(website) {
  if (!website) return null;
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(website) ? website : `http://${website}`;
  return (
    new URL(url).hostname
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^www\./, '') || null
  );
}

async function create(pool, req, b) {
  const refs = new Map();
  const ref = (list, id) => id && refs.set(id.toLowerCase(), list);
  ref('LIFECYCLES', b.lifecycle?.lifecycleId);
  ref('LEGAL_FORMS', b.legalForm?.id);
  ref('INDUSTRY_SECTORS', b.industrySector?.id);
  ref('EMPLOYEE_COUNTS', b.employeeCount?.id);
  ref('CUSTOMER_COUNTS', b.customerCount?.id);
  for (const r of b.referenceNumbers ?? []) ref('REFERENCE_NUMBER_TYPES', r.type.id);
  const texts = [];
  for (const t of b.tags ?? []) {
    const text = t.text.trim();
    if (!texts.some((x) => x.toLowerCase() === text.toLowerCase())) texts.push(text);
  }
  const trimmed = (v) => v?.trim() || null;
  const c = await runCreate(pool, CREATE_SQL, [
    req.headers['x-service-tenantid'],
    b.name.trim(),
    trimmed(b.nameAddition),
    trimmed(b.website),
    websiteDomain(trimmed(b.website)),
    trimmed(b.customerNumber),
    trimmed(b.vatId),
    trimmed(b.taxNumber),
    b.foundingDate ?? null,
    b.legalForm?.id ?? null,
    b.industrySector?.id ?? null,
    b.employeeCount?.id ?? null,
    b.customerCount?.id ?? null,
    JSON.stringify(
      (b.referenceNumbers ?? []).map((r) => ({ typeId: r.type.id, number: r.number.trim() })),
    ),
    JSON.stringify(
      (b.socialMedias ?? []).map((s) => ({ type: s.type.trim(), link: s.link.trim() })),
    ),
    b.lifecycle?.lifecycleId?.toLowerCase() ?? null,
    req.headers['x-integration-name'],
    req.headers['x-caller-id'] ?? null,
    [...refs.values()],
    [...refs.keys()],
    texts,
  ]);
  if (!c.id) return [400, { ...envelope(null, 400), message: 'unknown entry' }];
  return [201, envelope(toCompany(c), 201)];
}

async function read(pool, req, id) {
  const { rows } = await pool.query(READ_SQL, [req.headers['x-service-tenantid'], id]);
  if (!rows.length) return [404, { ...envelope(null, 404), message: 'not found' }];
  return [200, envelope(toCompany(rows[0]))];
}

export function createHandler(pool) {
  return async (req, body) => {
    if (req.method === 'POST' && req.url === '/v1/crm/companies') return create(pool, req, body);
    const id = /^\/v1\/crm\/companies\/([0-9a-f-]{36})$/.exec(req.url)?.[1];
    if (req.method === 'GET' && id) return read(pool, req, id);
    return [404, envelope(null, 404)];
  };
}
