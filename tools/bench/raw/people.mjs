// Baselines of scenarios 2 and 3: crm-people's create (P3) and read (P4) of a person as plain SQL
// on its database, answering the same People JSON. One statement each: a statement is a
// transaction by itself, and it saves the round trips of BEGIN/COMMIT.
import { envelope, runCreate } from '../raw-baseline.mjs';

// Create: the tag entries named by text found ignoring case (as the service's lower() query) or
// created (INSERT ... ON CONFLICT DO NOTHING, no lock), the lifecycle checked against the
// tenant's list (unknown: nothing is written, 400), then the person, its PersonTag rows and its
// first LifecycleHistory row. A tag a concurrent request created first is not visible to this
// statement: it writes nothing (`lost`) and is run again, and then finds the tag.
const CREATE_SQL = `
WITH want AS (
  SELECT w.list, w.text, w.category, w.ord
  FROM unnest($16::"PeopleSettingsList"[], $17::text[], $18::text[]) WITH ORDINALITY
    AS w(list, text, category, ord)
), found AS (
  SELECT DISTINCT ON (w.ord) w.ord, e.id, e.text, e.category
  FROM want w JOIN "SettingsEntry" e
    ON e."tenantId" = $1 AND e.list = w.list AND lower(e.text) = lower(w.text)
  ORDER BY w.ord, e."dateCreated"
), created AS (
  INSERT INTO "SettingsEntry" (id, "tenantId", list, text, category, position)
  SELECT gen_random_uuid(), $1, w.list, w.text, w.category, 0
  FROM want w WHERE w.ord NOT IN (SELECT ord FROM found)
  ORDER BY w.list, lower(w.text) -- one order of inserts: concurrent creates cannot deadlock
  ON CONFLICT DO NOTHING
  RETURNING id, list, text, category
), tag AS (
  SELECT w.ord, CASE w.list WHEN 'ORGA_TAGS' THEN 'ORGA' ELSE 'PERSONALITY' END AS kind,
         coalesce(f.id, c.id) AS id, coalesce(f.text, c.text) AS text,
         coalesce(f.category, c.category) AS category
  FROM want w
  LEFT JOIN found f ON f.ord = w.ord
  LEFT JOIN created c ON c.list = w.list AND lower(c.text) = lower(w.text)
), lost AS (
  SELECT FROM tag WHERE id IS NULL
), lc AS (
  SELECT text, color FROM "SettingsEntry"
  WHERE "tenantId" = $1 AND list = 'LIFECYCLES' AND id = $13::uuid
), person AS (
  INSERT INTO "Person" (id, "tenantId", salutation, title, firstname, lastname, birthday,
    "considerBirthYear", "importantDates", "socialMedias", "customerNumber", "employeeStatus",
    "employeeNumber", "lifecycleId", "lifecycleChanged", "createdBy", "modifiedBy",
    "createdByUserId", "modifiedByUserId", "dateCreated", "dateModified")
  SELECT gen_random_uuid(), $1, $2, $3, $4, $5, $6::date, $7::boolean, $8::jsonb, $9::jsonb,
    $10, $11, $12, $13::uuid, CASE WHEN $13::uuid IS NULL THEN NULL ELSE now() END, $14, $14,
    $15::uuid, $15::uuid, now(), now()
  WHERE ($13::uuid IS NULL OR EXISTS (SELECT FROM lc)) AND NOT EXISTS (SELECT FROM lost)
  RETURNING *
), person_tag AS (
  INSERT INTO "PersonTag" ("tenantId", "personId", "entryId", kind, position)
  SELECT $1, p.id, t.id, t.kind::"PersonTagKind", t.ord - 1 FROM person p, tag t
), history AS (
  INSERT INTO "LifecycleHistory" (id, "tenantId", "personId", "lifecycleId", "dateChanged")
  SELECT gen_random_uuid(), $1, p.id, p."lifecycleId", p."lifecycleChanged"
  FROM person p WHERE p."lifecycleId" IS NOT NULL
  RETURNING "lifecycleId", "dateChanged"
)
SELECT EXISTS (SELECT FROM lost) AS lost, p.*,
  (SELECT json_agg(t ORDER BY t.ord) FROM tag t) AS tags,
  (SELECT row_to_json(lc) FROM lc) AS lifecycle,
  (SELECT json_agg(json_build_object('lifecycleId', h."lifecycleId", 'dateChanged',
     h."dateChanged", 'text', lc.text, 'color', lc.color)) FROM history h, lc) AS histories
FROM (VALUES (1)) AS one LEFT JOIN person p ON true`;

// Read: the person with what the service joins (note, tags with their entry, lifecycle history,
// cards with addresses, relations) and the texts of the settings entries they name (lifecycle,
// address types, company relation types; the service looks these up in a second query).
const READ_SQL = `
SELECT p.*,
  (SELECT row_to_json(n) FROM "PersonNote" n WHERE n."personId" = p.id) AS note,
  (SELECT json_agg(json_build_object('kind', t.kind, 'id', t."entryId", 'text', e.text,
     'category', e.category) ORDER BY t.position)
   FROM "PersonTag" t JOIN "SettingsEntry" e ON e.id = t."entryId"
   WHERE t."personId" = p.id) AS tags,
  (SELECT json_build_object('text', e.text, 'color', e.color) FROM "SettingsEntry" e
   WHERE e."tenantId" = p."tenantId" AND e.id = p."lifecycleId") AS lifecycle,
  (SELECT json_agg(json_build_object('lifecycleId', h."lifecycleId", 'dateChanged',
     h."dateChanged", 'text', e.text, 'color', e.color) ORDER BY h."dateChanged")
   FROM "LifecycleHistory" h
   LEFT JOIN "SettingsEntry" e ON e."tenantId" = h."tenantId" AND e.id = h."lifecycleId"
   WHERE h."personId" = p.id) AS histories,
  (SELECT json_agg(c ORDER BY c."dateCreated") FROM (
     SELECT c.*, rt.text AS "relationTypeText",
       (SELECT json_agg(a ORDER BY a.position) FROM (
          SELECT a.*,
            (SELECT json_agg(json_build_object('id', u.id, 'text', e.text) ORDER BY u.i)
             FROM unnest(a."addressTypeIds") WITH ORDINALITY AS u(id, i)
             LEFT JOIN "SettingsEntry" e ON e."tenantId" = a."tenantId" AND e.id = u.id
            ) AS "addressTypes"
          FROM "CardAddress" a WHERE a."cardId" = c.id) a) AS addresses
     FROM "BusinessCard" c
     LEFT JOIN "SettingsEntry" rt
       ON rt."tenantId" = c."tenantId" AND rt.id = c."companyRelationTypeId"
     WHERE c."personId" = p.id) c) AS cards,
  (SELECT json_agg(r ORDER BY r."dateCreated") FROM "PersonRelation" r
   WHERE r."fromPersonId" = p.id) AS relations
FROM "Person" p WHERE p."tenantId" = $1 AND p.id = $2`;

/** Timestamps: Date from a column, `2026-11-23T10:00:00.123` (UTC, no zone) from json_agg. */
export const iso = (v) =>
  v == null
    ? null
    : (v instanceof Date ? v : new Date(/Z|[+-]\d\d:\d\d$/.test(v) ? v : `${v}Z`)).toISOString();

const initials = (p) =>
  [p.firstname, p.lastname]
    .map((s) => [...(s?.trim() ?? '')][0] ?? '')
    .join('')
    .toUpperCase();

const lifecycle = (id, at, entry) => ({
  lifecycleId: id,
  text: entry?.text ?? '',
  color: entry?.color ?? null,
  dateChanged: iso(at),
});

const toAddress = (a) => ({
  id: a.id,
  isFavorite: a.isFavorite,
  addressTypes: a.addressTypes ?? [],
  country: a.country,
  countryCode: a.countryCode,
  street: a.street,
  streetAdditional: a.streetAdditional,
  zip: a.zip,
  city: a.city,
  postboxNumber: a.postboxNumber,
  federalState: a.federalState,
  cityDistrict: a.cityDistrict,
  cityAddition: a.cityAddition,
  coordinates:
    a.longitude !== null && a.latitude !== null
      ? { longitude: a.longitude, latitude: a.latitude }
      : null,
  validationInfo: a.validationInfo ?? null,
  isPostOfficeBox: a.isPostOfficeBox,
});

const toCard = (c) => ({
  id: c.id,
  isPrivate: c.isPrivate,
  alternativeSalutation: c.alternativeSalutation,
  alternativeTitle: c.alternativeTitle,
  alternativeFirstname: c.alternativeFirstname,
  alternativeLastname: c.alternativeLastname,
  useAlternativeName: c.useAlternativeName,
  companyId: c.companyId,
  business: c.business,
  companyRelationType: c.companyRelationTypeId
    ? { id: c.companyRelationTypeId, text: c.relationTypeText }
    : null,
  companyRelationSince: iso(c.companyRelationSince),
  companyRelationUntil: iso(c.companyRelationUntil),
  validFrom: iso(c.validFrom),
  validTo: iso(c.validTo),
  phones: c.phones,
  emails: c.emails,
  businessPositions: c.businessPositions,
  addresses: (c.addresses ?? []).map(toAddress),
  isFavorite: c.isFavorite,
  isActive: c.isActive,
  markAsFavorite: c.markAsFavorite,
});

/** The row of either statement -> the People resource, as crm-people's mapper builds it. */
function toPerson(p) {
  const tags = p.tags ?? [];
  const name = [p.firstname, p.lastname].map((s) => s?.trim()).filter(Boolean);
  return {
    id: p.id,
    createdBy: p.createdBy,
    modifiedBy: p.modifiedBy,
    dateCreated: iso(p.dateCreated),
    dateModified: iso(p.dateModified),
    createdByUserId: p.createdByUserId,
    modifiedByUserId: p.modifiedByUserId,
    salutation: p.salutation,
    title: p.title,
    firstname: p.firstname,
    lastname: p.lastname,
    birthday:
      p.birthday !== null || p.considerBirthYear !== null
        ? { birthday: p.birthday, considerBirthYear: p.considerBirthYear }
        : null,
    importantDates: p.importantDates,
    socialMedias: p.socialMedias,
    orgaTags: tags.filter((t) => t.kind === 'ORGA').map((t) => ({ id: t.id, text: t.text })),
    personalities: tags
      .filter((t) => t.kind === 'PERSONALITY')
      .map((t) => ({ id: t.id, text: t.text, category: t.category })),
    customerNumber: p.customerNumber,
    note: p.note
      ? {
          note: p.note.note,
          createdBy: p.note.createdBy,
          modifiedBy: p.note.modifiedBy,
          dateCreated: iso(p.note.dateCreated),
          dateModified: iso(p.note.dateModified),
          createdByUserId: p.note.createdByUserId,
          modifiedByUserId: p.note.modifiedByUserId,
        }
      : null,
    cards: (p.cards ?? []).map(toCard),
    relations: (p.relations ?? []).map((r) => ({
      id: r.id,
      personId: r.toPersonId,
      type: { typeIdentifier: r.typeIdentifier, isFavorite: r.isFavorite },
    })),
    userMail: p.userMail,
    employeeStatus: p.employeeStatus,
    employeeNumber: p.employeeNumber,
    userId: p.userId,
    lifecycle: p.lifecycleId ? lifecycle(p.lifecycleId, p.lifecycleChanged, p.lifecycle) : null,
    lifecycleHistories: (p.histories ?? []).map((h) => lifecycle(h.lifecycleId, h.dateChanged, h)),
    profileImage: p.profileImage,
    initials: initials(p),
    detailImagePath: p.profileImage ? `/v1/crm/people/${p.id}/profile-image/detail` : null,
    name: name.join(' '),
  };
}

/** Tags by text, once per list and text ignoring case, in input order (orga tags first). */
function tagParams(b) {
  const seen = new Set();
  const out = { lists: [], texts: [], categories: [] };
  const lists = [
    ['ORGA_TAGS', b.orgaTags],
    ['PERSONALITY_TAGS', b.personalities],
  ];
  for (const [list, tags] of lists) {
    for (const t of tags ?? []) {
      const text = t.text.trim();
      const key = `${list}:${text.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.lists.push(list);
      out.texts.push(text);
      out.categories.push(t.category ?? null);
    }
  }
  return out;
}

async function create(pool, req, b) {
  const tags = tagParams(b);
  const params = [
    req.headers['x-service-tenantid'],
    b.salutation ?? null,
    b.title ?? null,
    b.firstname ?? null,
    b.lastname ?? null,
    b.birthday?.birthday?.slice(0, 10) ?? null,
    b.birthday?.considerBirthYear ?? null,
    JSON.stringify(
      (b.importantDates ?? []).map((d) => ({
        text: d.text ?? null,
        date: d.date ? new Date(d.date).toISOString() : null,
      })),
    ),
    JSON.stringify(
      (b.socialMedias ?? []).map((s) => ({ type: s.type ?? null, link: s.link ?? null })),
    ),
    b.customerNumber ?? null,
    b.employeeStatus ?? null,
    b.employeeNumber ?? null,
    b.lifecycle?.lifecycleId ?? null,
    req.headers['x-integration-name'],
    req.headers['x-caller-id'] ?? null,
    tags.lists,
    tags.texts,
    tags.categories,
  ];
  const p = await runCreate(pool, CREATE_SQL, params);
  if (!p.id) return [400, { ...envelope(null, 400), message: 'unknown lifecycle' }];
  return [201, envelope(toPerson(p), 201)];
}

async function read(pool, req, id) {
  const { rows } = await pool.query(READ_SQL, [req.headers['x-service-tenantid'], id]);
  if (!rows.length) return [404, { ...envelope(null, 404), message: 'not found' }];
  return [200, envelope(toPerson(rows[0]))];
}

export function createHandler(pool) {
  return async (req, body) => {
    if (req.method === 'POST' && req.url === '/v1/crm/people') return create(pool, req, body);
    const id = /^\/v1\/crm\/people\/([0-9a-f-]{36})$/.exec(req.url)?.[1];
    if (req.method === 'GET' && id) return read(pool, req, id);
    return [404, envelope(null, 404)];
  };
}
