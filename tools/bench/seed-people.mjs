// Seeds many people (and a business card for every second one) into one tenant, fast: one
// multi-row INSERT ... SELECT FROM unnest(...) per chunk of 10,000 rows over a single connection.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const FIRST = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Eva',
  'Felix',
  'Greta',
  'Hannes',
  'Ida',
  'Jonas',
  'Karla',
  'Lukas',
  'Mia',
  'Noah',
  'Olga',
  'Paul',
  'Quirin',
  'Rosa',
  'Sven',
  'Tina',
  'Uwe',
  'Vera',
  'Willi',
  'Xenia',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
  'Schröder',
  'Neumann',
  'Schwarz',
  'Zimmermann',
  'Braun',
  'Krüger',
  'Hofmann',
  'Hartmann',
  'Lange',
  'Schmitt',
  'Werner',
];
const STATUS = ['active', 'inactive', 'retired', null];
const LIFECYCLES = [
  '00000000-0000-4000-a000-000000000101',
  '00000000-0000-4000-a000-000000000102',
  '00000000-0000-4000-a000-000000000103',
  null,
];

/** Deterministic pseudo-random numbers, so every run seeds the same data. */
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

export async function seedPeople(connectionString, tenantId, total, chunk = 10_000) {
  const db = new pg.Client({ connectionString });
  await db.connect();
  const rand = rng(42);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  try {
    for (let start = 0; start < total; start += chunk) {
      const n = Math.min(chunk, total - start);
      const cols = { id: [], first: [], last: [], number: [], status: [], lifecycle: [], mail: [] };
      for (let i = 0; i < n; i++) {
        const k = start + i;
        const first = pick(FIRST);
        // a suffix spreads the last names over ~25,000 values, as in a real address book
        const last = `${pick(LAST)}${k % 1000 === 0 ? '' : `-${Math.floor(rand() * 1000)}`}`;
        cols.id.push(randomUUID());
        cols.first.push(first);
        cols.last.push(last);
        cols.number.push(`C-${String(k + 1).padStart(6, '0')}`);
        cols.status.push(pick(STATUS));
        cols.lifecycle.push(pick(LIFECYCLES));
        cols.mail.push(`${first}.${k}@example.com`.toLowerCase());
      }
      await db.query(
        `INSERT INTO "Person" (id, "tenantId", firstname, lastname, "customerNumber", "employeeStatus",
           "lifecycleId", "lifecycleChanged", "createdBy", "modifiedBy", "dateCreated", "dateModified")
         SELECT u.id, $1, u.first, u.last, u.number, u.status, u.lifecycle,
                CASE WHEN u.lifecycle IS NULL THEN NULL ELSE now() END, 'bench', 'bench', now(), now()
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::uuid[])
           AS u(id, first, last, number, status, lifecycle)`,
        [tenantId, cols.id, cols.first, cols.last, cols.number, cols.status, cols.lifecycle],
      );
      // every second person has a card with an e-mail and a position
      const half = cols.id.filter((_, i) => i % 2 === 0);
      await db.query(
        `INSERT INTO "BusinessCard" (id, "tenantId", "personId", business, emails, "businessPositions",
           "isFavorite", "dateCreated", "dateModified")
         SELECT gen_random_uuid(), $1, u.pid, 'Company ' || (u.ord % 500),
                jsonb_build_array(jsonb_build_object('mail', u.mail, 'isFavorite', true)),
                '[{"position": "Manager", "isFavorite": true}]'::jsonb, true, now(), now()
         FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS u(pid, mail, ord)`,
        [tenantId, half, cols.mail.filter((_, i) => i % 2 === 0)],
      );
    }
    // as autovacuum would soon: statistics, and the visibility map index-only scans rely on
    await db.query('VACUUM ANALYZE "Person"');
    await db.query('VACUUM ANALYZE "BusinessCard"');
  } finally {
    await db.end();
  }
}
