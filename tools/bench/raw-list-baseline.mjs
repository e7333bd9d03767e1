// The raw baseline of the list bench: node:http + pg answering
// GET /v1/crm/people?pageSize=&sort=lastname[&after=<cursor> | &page=N] with the same page the
// service answers, written by hand as one SQL statement per page: a keyset query for the ids (one
// index range per condition, as the service does), the people with everything PERSON_INCLUDE
// loads (note, tags, lifecycle history, cards with addresses, relations) built into the resource's
// JSON by PostgreSQL, and the total counted up to the cap. JSON text goes out as it comes from the
// database. No framework, no validation, no DTO mapping: the floor the service is measured
// against. Above the cap the total is the planner's estimate (reused for a minute), as in the
// service.
// `page=N` answers by OFFSET, as the service does (only to show what OFFSET costs at depth).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** System settings entries (ids, colors) with their English texts: what anyEntries resolves. */
export function systemEntries() {
  const require = createRequire(import.meta.url);
  const { SYSTEM_ENTRIES, systemTextKey } = require(
    path.join(root, 'dist/apps/crm-people/src/settings/system-entries.js'),
  );
  const i18n = (key) => {
    const [file, ...rest] = key.split('.');
    const json = JSON.parse(
      readFileSync(path.join(root, `apps/crm-people/src/i18n/en/${file}.json`), 'utf8'),
    );
    return rest.reduce((o, k) => o?.[k], json) ?? key;
  };
  const out = {};
  for (const [list, entries] of Object.entries(SYSTEM_ENTRIES))
    for (const e of entries)
      out[e.id] = { text: i18n(systemTextKey(list, e.key)), color: e.color ?? null };
  return out;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (col) => `to_char(${col}, ${ISO})`;
const list = (col) => `CASE WHEN jsonb_typeof(${col}) = 'array' THEN ${col} ELSE '[]'::jsonb END`;
// an entry's text and color: system entries from a constant, the tenant's from SettingsEntry
const entry = (id, field) =>
  `coalesce(__SYSTEM__ -> (${id})::text ->> '${field}', (SELECT se.${field === 'text' ? 'text' : 'color'} FROM "SettingsEntry" se WHERE se.id = ${id} AND se."tenantId" = $1))`;
const lifecycleJson = (id, at) =>
  `json_build_object('lifecycleId', ${id}, 'text', coalesce(${entry(id, 'text')}, ''), 'color', ${entry(id, 'color')}, 'dateChanged', ${iso(at)})`;

/** One person as the People resource (person.mapper.ts toPerson), from "Person" p. */
const PERSON_JSON = `json_build_object(
  'id', p.id, 'createdBy', p."createdBy", 'modifiedBy', p."modifiedBy",
  'dateCreated', ${iso('p."dateCreated"')}, 'dateModified', ${iso('p."dateModified"')},
  'createdByUserId', p."createdByUserId", 'modifiedByUserId', p."modifiedByUserId",
  'salutation', p.salutation, 'title', p.title, 'firstname', p.firstname, 'lastname', p.lastname,
  'birthday', CASE WHEN p.birthday IS NULL AND p."considerBirthYear" IS NULL THEN NULL
    ELSE json_build_object('birthday', to_char(p.birthday, 'YYYY-MM-DD'), 'considerBirthYear', p."considerBirthYear") END,
  'importantDates', ${list('p."importantDates"')}, 'socialMedias', ${list('p."socialMedias"')},
  'orgaTags', coalesce((SELECT json_agg(json_build_object('id', t."entryId", 'text', e.text) ORDER BY t.position)
    FROM "PersonTag" t JOIN "SettingsEntry" e ON e.id = t."entryId" WHERE t."personId" = p.id AND t.kind = 'ORGA'), '[]'),
  'personalities', coalesce((SELECT json_agg(json_build_object('id', t."entryId", 'text', e.text, 'category', e.category) ORDER BY t.position)
    FROM "PersonTag" t JOIN "SettingsEntry" e ON e.id = t."entryId" WHERE t."personId" = p.id AND t.kind = 'PERSONALITY'), '[]'),
  'customerNumber', p."customerNumber",
  'note', (SELECT json_build_object('note', n.note, 'createdBy', n."createdBy", 'modifiedBy', n."modifiedBy",
    'dateCreated', ${iso('n."dateCreated"')}, 'dateModified', ${iso('n."dateModified"')},
    'createdByUserId', n."createdByUserId", 'modifiedByUserId', n."modifiedByUserId")
    FROM "PersonNote" n WHERE n."personId" = p.id),
  'cards', coalesce((SELECT json_agg(json_build_object(
      'id', c.id, 'isPrivate', c."isPrivate", 'alternativeSalutation', c."alternativeSalutation",
      'alternativeTitle', c."alternativeTitle", 'alternativeFirstname', c."alternativeFirstname",
      'alternativeLastname', c."alternativeLastname", 'useAlternativeName', c."useAlternativeName",
      'companyId', c."companyId", 'business', c.business,
      'companyRelationType', CASE WHEN c."companyRelationTypeId" IS NULL THEN NULL
        ELSE json_build_object('id', c."companyRelationTypeId", 'text', ${entry('c."companyRelationTypeId"', 'text')}) END,
      'companyRelationSince', ${iso('c."companyRelationSince"')}, 'companyRelationUntil', ${iso('c."companyRelationUntil"')},
      'validFrom', ${iso('c."validFrom"')}, 'validTo', ${iso('c."validTo"')},
      'phones', ${list('c.phones')}, 'emails', ${list('c.emails')}, 'businessPositions', ${list('c."businessPositions"')},
      'addresses', coalesce((SELECT json_agg(json_build_object(
          'id', a.id, 'isFavorite', a."isFavorite",
          'addressTypes', coalesce((SELECT json_agg(json_build_object('id', tid, 'text', ${entry('tid', 'text')}) ORDER BY o)
            FROM unnest(a."addressTypeIds") WITH ORDINALITY AS u(tid, o)), '[]'),
          'country', a.country, 'countryCode', a."countryCode", 'street', a.street,
          'streetAdditional', a."streetAdditional", 'zip', a.zip, 'city', a.city,
          'postboxNumber', a."postboxNumber", 'federalState', a."federalState",
          'cityDistrict', a."cityDistrict", 'cityAddition', a."cityAddition",
          'coordinates', CASE WHEN a.longitude IS NULL OR a.latitude IS NULL THEN NULL
            ELSE json_build_object('longitude', a.longitude, 'latitude', a.latitude) END,
          'validationInfo', a."validationInfo", 'isPostOfficeBox', a."isPostOfficeBox") ORDER BY a.position)
        FROM "CardAddress" a WHERE a."cardId" = c.id), '[]'),
      'isFavorite', c."isFavorite", 'isActive', c."isActive", 'markAsFavorite', c."markAsFavorite")
    ORDER BY c."dateCreated") FROM "BusinessCard" c WHERE c."personId" = p.id), '[]'),
  'relations', coalesce((SELECT json_agg(json_build_object('id', r.id, 'personId', r."toPersonId",
      'type', json_build_object('typeIdentifier', r."typeIdentifier", 'isFavorite', r."isFavorite")) ORDER BY r."dateCreated")
    FROM "PersonRelation" r WHERE r."fromPersonId" = p.id), '[]'),
  'userMail', p."userMail", 'employeeStatus', p."employeeStatus", 'employeeNumber', p."employeeNumber", 'userId', p."userId",
  'lifecycle', CASE WHEN p."lifecycleId" IS NULL THEN NULL ELSE ${lifecycleJson('p."lifecycleId"', 'p."lifecycleChanged"')} END,
  'lifecycleHistories', coalesce((SELECT json_agg(${lifecycleJson('h."lifecycleId"', 'h."dateChanged"')} ORDER BY h."dateChanged")
    FROM "LifecycleHistory" h WHERE h."personId" = p.id), '[]'),
  'profileImage', p."profileImage",
  'initials', upper(coalesce(left(btrim(p.firstname), 1), '') || coalesce(left(btrim(p.lastname), 1), '')),
  'detailImagePath', CASE WHEN p."profileImage" IS NULL THEN NULL ELSE '/v1/crm/people/' || p.id || '/profile-image/detail' END,
  'name', concat_ws(' ', nullif(btrim(p.firstname), ''), nullif(btrim(p.lastname), ''))
)`;

/** The ids of the page (and one more), sort=lastname: [$1 tenant, $2 limit, ...] */
function idsSql(start) {
  const cols = `SELECT q.id, q.lastname FROM "Person" q WHERE q."tenantId" = $1`;
  const order = `ORDER BY q.lastname, q.id LIMIT $2`;
  if (start.offset !== undefined)
    return { name: 'offset', sql: `${cols} ${order} OFFSET $3`, params: [start.offset] };
  if (!start.after) return { name: 'first', sql: `${cols} ${order}`, params: [] };
  const [lastname, id] = start.after;
  if (lastname === null)
    return {
      name: 'after-null',
      sql: `${cols} AND q.lastname IS NULL AND q.id > $3::uuid ${order}`,
      params: [id],
    };
  // after (lastname, id), NULLs last: same lastname and a greater id, a greater lastname, no lastname
  return {
    name: 'after',
    sql: `SELECT s.id, s.lastname FROM (
        (${cols} AND q.lastname = $3 AND q.id > $4::uuid ${order})
        UNION ALL (${cols} AND q.lastname > $3 ${order})
        UNION ALL (${cols} AND q.lastname IS NULL ${order})
      ) s ORDER BY s.lastname, s.id LIMIT $2`,
    params: [lastname, id],
  };
}

const pageSql = (ids) => `
  WITH ids AS MATERIALIZED (
    SELECT i.id, i.lastname, row_number() OVER (ORDER BY i.lastname, i.id) AS ord FROM (${ids}) i),
       shown AS (SELECT * FROM ids ORDER BY ord LIMIT $2 - 1)
  SELECT (SELECT count(*)::int FROM (SELECT 1 FROM "Person" WHERE "tenantId" = $1 LIMIT $cap) c) AS counted,
         (SELECT count(*)::int FROM ids) AS found,
         (SELECT json_agg(${PERSON_JSON} ORDER BY s.ord)::text FROM shown s JOIN "Person" p ON p.id = s.id) AS data,
         (SELECT json_build_array(s.lastname, s.id)::text FROM shown s ORDER BY s.ord DESC LIMIT 1) AS last`;

/**
 * The page's one statement for pg, prepared (named) per connection so it is planned once; the
 * system entries (`system`, JSON) are a constant in it.
 */
export function pageQuery({ tenant, system, start, size, exactTotalMax }) {
  const ids = idsSql(start);
  return {
    name: `raw-list-${ids.name}`,
    text: pageSql(ids.sql)
      .replace('$cap', `$${3 + ids.params.length}`)
      .replaceAll('__SYSTEM__', `'${system.replaceAll("'", "''")}'::jsonb`),
    values: [tenant, size + 1, ...ids.params, exactTotalMax + 1],
  };
}

const encodeCursor = (values) =>
  Buffer.from(JSON.stringify({ v: 1, s: 'lastname,id', k: values })).toString('base64url');

export async function startRawListBaseline(
  port,
  connectionString,
  { exactTotalMax = 10_000, poolSize = 10 } = {},
) {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  const system = JSON.stringify(systemEntries());
  // the planner's estimate per tenant, reused for a minute as the service does
  const estimates = new Map();
  const estimated = async (tenant) => {
    const known = estimates.get(tenant);
    if (known && known.until > Date.now()) return known.rows;
    const plan = await pool.query(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM "Person" WHERE "tenantId" = $1`,
      [tenant],
    );
    const rows = Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
    estimates.set(tenant, { rows, until: Date.now() + 60_000 });
    return rows;
  };
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://raw');
      const size = Math.min(500, Math.max(1, Number(url.searchParams.get('pageSize') ?? 50)));
      const tenant = req.headers['x-service-tenantid'];
      const after = url.searchParams.get('after');
      const page = url.searchParams.get('page');
      const start = after
        ? { after: JSON.parse(Buffer.from(after, 'base64url').toString()).k }
        : page
          ? { offset: (Number(page) - 1) * size }
          : {};
      const { rows } = await pool.query(pageQuery({ tenant, system, start, size, exactTotalMax }));
      const { counted, found, data, last } = rows[0];
      let total = counted;
      let exact = true;
      if (counted > exactTotalMax) {
        if (start.offset !== undefined && found > 0 && found <= size) total = start.offset + found;
        else {
          const estimate = await estimated(tenant);
          total = Math.max(estimate, exactTotalMax + 1, (start.offset ?? 0) + found);
          exact = false;
        }
      }
      const nextCursor = found > size ? JSON.stringify(encodeCursor(JSON.parse(last))) : 'null';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        `{"data":${data ?? '[]'},"message":null,"metaData":{"totalResults":${total},"totalResultsExact":${exact},"nextCursor":${nextCursor},"responseTimeStamp":"${new Date().toISOString()}"},"statusCode":200}`,
      );
    } catch (err) {
      res.writeHead(500);
      res.end(String(err?.stack ?? err));
    }
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    name: 'raw-list',
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}
