-- Indexes for the people lists (P1 filter, P2 list) and for relation lookups. No table changes:
-- the schema snapshot beside this file equals the previous one.
-- pg_trgm serves ILIKE '%q%', btree_gin lets a GIN index lead with "tenantId" like every other
-- index. Both are trusted extensions: the database owner may create them (PostgreSQL 13+).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- What `q` searches on a person: names, customer number and user e-mail as one text, so one
-- trigram index serves the search and "anna schmidt" matches across first and last name.
-- A plain SQL expression: PostgreSQL inlines it in the index and in queries alike.
CREATE FUNCTION crm_people_person_search(firstname text, lastname text, customer_number text, user_mail text)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(firstname, '') || ' ' || coalesce(lastname, '') || ' ' || coalesce(customer_number, '') || ' ' || coalesce(user_mail, '') $$;

-- The e-mail addresses of a card (JSON list of { mail, ... }), lower-cased.
CREATE FUNCTION crm_people_card_mails(emails jsonb)
  RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(lower(e ->> 'mail')) FILTER (WHERE e ->> 'mail' IS NOT NULL), '{}')
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(emails) = 'array' THEN emails ELSE '[]'::jsonb END) AS e
  $$;

-- What `q` searches on a card: its business (company name) and its e-mail addresses.
CREATE FUNCTION crm_people_card_search(business text, emails jsonb)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  -- The mails are spelled out rather than taken from crm_people_card_mails: PostgreSQL 17+ runs
  -- index expressions with a restricted search_path, where an unqualified call is not found.
  AS $$
    SELECT coalesce(business, '') || ' ' || coalesce((
      SELECT string_agg(lower(e ->> 'mail'), ' ')
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(emails) = 'array' THEN emails ELSE '[]'::jsonb END) AS e
      WHERE e ->> 'mail' IS NOT NULL), '')
  $$;

CREATE INDEX "Person_search_trgm_idx" ON "Person"
  USING gin ("tenantId", crm_people_person_search("firstname", "lastname", "customerNumber", "userMail") gin_trgm_ops);

CREATE INDEX "Person_userMail_lower_idx" ON "Person" ("tenantId", lower("userMail"));

CREATE INDEX "BusinessCard_mails_idx" ON "BusinessCard"
  USING gin ("tenantId", crm_people_card_mails("emails"));

CREATE INDEX "BusinessCard_search_trgm_idx" ON "BusinessCard"
  USING gin ("tenantId", crm_people_card_search("business", "emails") gin_trgm_ops);

-- Page order of the people lists (P1, P2): the default sort (lastname, firstname) and
-- sort=lastname, each with the id that breaks ties, so a page is read from the index alone.
CREATE INDEX "Person_tenantId_lastname_firstname_id_idx" ON "Person" ("tenantId", "lastname", "firstname", "id");
CREATE INDEX "Person_tenantId_lastname_id_idx" ON "Person" ("tenantId", "lastname", "id");

-- Foreign keys without an index led by them. Prisma loads relations by the key alone (one join
-- per relation, no tenantId in it) and ON DELETE CASCADE / RESTRICT look rows up the same way,
-- so an index led by "tenantId" cannot serve them: without these every read of a person with
-- its cards, history and relations, and every delete, scanned the whole child tables. The
-- parent row was found within its tenant, so these lookups stay within it.
CREATE INDEX "BusinessCard_personId_idx" ON "BusinessCard" ("personId");
CREATE INDEX "CardAddress_cardId_idx" ON "CardAddress" ("cardId");
CREATE INDEX "LifecycleHistory_personId_dateChanged_idx" ON "LifecycleHistory" ("personId", "dateChanged");
CREATE INDEX "PersonRelation_fromPersonId_idx" ON "PersonRelation" ("fromPersonId");
CREATE INDEX "PersonRelation_toPersonId_idx" ON "PersonRelation" ("toPersonId");
CREATE INDEX "PersonTag_entryId_idx" ON "PersonTag" ("entryId");
CREATE INDEX "TouchpointPerson_personId_idx" ON "TouchpointPerson" ("personId");
CREATE INDEX "TouchpointMood_touchpointId_dateCreated_idx" ON "TouchpointMood" ("touchpointId", "dateCreated");
CREATE INDEX "TouchpointTag_entryId_idx" ON "TouchpointTag" ("entryId");
CREATE INDEX "PersonDocument_personId_dateCreated_idx" ON "PersonDocument" ("personId", "dateCreated");
