import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { tenantHeaders } from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { PEOPLE_SETTINGS } from '../settings/settings-lists';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { startCrmPeople, RunningService } from '../test/service-harness';
import { inTenant } from '../test/tenant-scope';
import { peopleTestClient } from './test/people-test-client';

// Tags named by text under concurrency: no settings lock on that path, the unique index ignoring
// case keeps one entry per text, the settings writes (S2, S3) racing it answer 201/200 or 409.

// slow when the machine is busy (2 cores shared with other test runs)
jest.setTimeout(60000);

let svc: RunningService;
let t: ReturnType<typeof peopleTestClient>;

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_tag_race');
  t = peopleTestClient(svc);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const newTenant = () => `tenant-race-${randomUUID().slice(0, 8)}`;
const SPELLINGS = (text: string) => [text, text.toUpperCase(), text.toLowerCase(), ` ${text} `];

/** The tenant's entries of a list whose text is `text` ignoring case. */
const entriesNamed = (tenant: string, list: string, text: string) =>
  t.sql<{ id: string; text: string }>(
    `SELECT id::text, text FROM "SettingsEntry"
     WHERE "tenantId" = $1 AND list = $2::"PeopleSettingsList" AND lower(text) = lower($3)`,
    [tenant, list, text],
  );

/** A connection holding the tenant's settings lock (as S2-S5 take it) until release(). */
async function holdSettingsLock(tenant: string) {
  const db = new Client({ connectionString: svc.databaseUrl });
  await db.connect();
  await db.query('BEGIN');
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    `${PEOPLE_SETTINGS.definition.lockKeyPrefix}:${tenant}`,
  ]);
  return {
    release: async () => {
      await db.query('ROLLBACK');
      await db.end();
    },
  };
}

describe('P3 POST /people with tags by text, concurrently', () => {
  it('50 creates naming one new text in different cases: all 201, one entry per list, shared', async () => {
    const tenant = newTenant();
    const spellings = SPELLINGS('Perf');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.rest(tenant, 'POST', '/people', {
          lastname: `Racer ${i}`,
          orgaTags: [{ text: spellings[i % spellings.length] }],
          personalities: [{ text: spellings[(i + 1) % spellings.length] }],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const [orga] = await entriesNamed(tenant, 'ORGA_TAGS', 'perf');
    const [personality] = await entriesNamed(tenant, 'PERSONALITY_TAGS', 'perf');
    expect((await entriesNamed(tenant, 'ORGA_TAGS', 'perf')).length).toBe(1);
    expect((await entriesNamed(tenant, 'PERSONALITY_TAGS', 'perf')).length).toBe(1);
    expect(spellings.map((s) => s.trim())).toContain(orga.text);
    for (const a of answers) {
      expect(a.body.data.orgaTags).toEqual([{ id: orga.id, text: orga.text }]);
      expect(a.body.data.personalities).toEqual([
        { id: personality.id, text: personality.text, category: null },
      ]);
    }
    const links = await t.sql<{ kind: string; n: number }>(
      `SELECT kind::text, count(DISTINCT "personId")::int AS n FROM "PersonTag"
       WHERE "tenantId" = $1 GROUP BY kind ORDER BY kind`,
      [tenant],
    );
    expect(links).toEqual([
      { kind: 'ORGA', n: 50 },
      { kind: 'PERSONALITY', n: 50 },
    ]);
  });

  it('does not wait for the settings lock: a new tag text is created while S2 holds it', async () => {
    const tenant = newTenant();
    const lock = await holdSettingsLock(tenant);
    let s2: Promise<{ status: number }> | undefined;
    try {
      // the lock is the one S2 takes: S2 waits for it ...
      let s2Done = false;
      s2 = t.rest(tenant, 'POST', '/people-settings/orga-tags', { text: 'Admin' }).then((r) => {
        s2Done = true;
        return r;
      });
      // ... while creates with a new tag text, and with that text again, do not
      const started = Date.now();
      const first = await fetchWithin(5000, tenant, {
        orgaTags: [{ text: 'Unlocked' }],
        personalities: [{ text: 'Calm', category: 'Mood' }],
      });
      const second = await fetchWithin(5000, tenant, { orgaTags: [{ text: 'UNLOCKED' }] });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.data.orgaTags[0].id).toBe(first.body.data.orgaTags[0].id);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(s2Done).toBe(false);
    } finally {
      await lock.release();
    }
    expect((await s2!).status).toBe(201);
  });
});

/** POST /people that fails the test if it does not answer within `ms`. */
async function fetchWithin(ms: number, tenant: string, body: Record<string, unknown>) {
  const res = await fetch(`${svc.url}/v1/crm/people`, {
    method: 'POST',
    headers: tenantHeaders(tenant),
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(ms),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('SettingsLookupService.createTags racing itself', () => {
  it('skips a text inserted at the same moment in the same case too: never a unique violation', async () => {
    // With ON CONFLICT ("tenantId", "list", lower("text")) the case-sensitive unique index is no
    // arbiter, and two inserts of one spelling at the same moment can fail on it (23505).
    const lookup = svc.app.get(SettingsLookupService);
    const prisma = svc.app.get(PrismaService);
    const tenant = newTenant();
    for (let round = 0; round < 150; round++) {
      const text = `Same ${round}`;
      const resolved = await Promise.all(
        [0, 1, 2, 3].map(() =>
          inTenant(tenant, () =>
            lookup.resolveTags(prisma, tenant, 'ORGA_TAGS', [{ text }], 'tags', 'en'),
          ),
        ),
      );
      expect(new Set(resolved.map(([e]) => e.id)).size).toBe(1);
    }
    const rows = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "SettingsEntry" WHERE "tenantId" = $1`,
      [tenant],
    );
    expect(rows[0].n).toBe(150);
  });
});

describe('S2 and S3 racing tags by text', () => {
  it('S2 creating the text that people name meanwhile: 201 or 409 textTaken, never a 500', async () => {
    const tenant = newTenant();
    for (let round = 0; round < 8; round++) {
      const text = `Race ${round}`;
      const [s2, ...people] = await Promise.all([
        t.rest(tenant, 'POST', '/people-settings/orga-tags', { text }),
        ...SPELLINGS(text).map((spelling) =>
          t.rest(tenant, 'POST', '/people', { orgaTags: [{ text: spelling }] }),
        ),
      ]);
      expect([201, 409]).toContain(s2.status);
      if (s2.status === 409) {
        expect(s2.body.errors).toEqual([
          expect.objectContaining({ field: 'text', rule: 'textTaken' }),
        ]);
      }
      expect(people.map((p) => p.status)).toEqual(people.map(() => 201));
      const entries = await entriesNamed(tenant, 'ORGA_TAGS', text);
      expect(entries).toHaveLength(1);
      for (const p of people) expect(p.body.data.orgaTags[0].id).toBe(entries[0].id);
      if (s2.status === 201) expect(s2.body.data.id).toBe(entries[0].id);
    }
  });

  it('S3 renaming to the text that people name meanwhile: 200 or 409 textTaken, never a 500', async () => {
    const tenant = newTenant();
    for (let round = 0; round < 8; round++) {
      const text = `Renamed ${round}`;
      const created = await t.rest(tenant, 'POST', '/people-settings/orga-tags', {
        text: `Before ${round}`,
      });
      const id = created.body.data.id as string;
      const [s3, ...people] = await Promise.all([
        t.rest(tenant, 'PUT', `/people-settings/orga-tags/${id}`, { text }),
        ...SPELLINGS(text).map((spelling) =>
          t.rest(tenant, 'POST', '/people', { orgaTags: [{ text: spelling }] }),
        ),
      ]);
      expect([200, 409]).toContain(s3.status);
      if (s3.status === 409) {
        expect(s3.body.errors).toEqual([
          expect.objectContaining({ field: 'text', rule: 'textTaken' }),
        ]);
      }
      expect(people.map((p) => p.status)).toEqual(people.map(() => 201));
      const entries = await entriesNamed(tenant, 'ORGA_TAGS', text);
      expect(entries).toHaveLength(1);
      for (const p of people) expect(p.body.data.orgaTags[0].id).toBe(entries[0].id);
    }
  });

  it('S2 and tags by text insert new texts in one order (by text ignoring case): no deadlock', async () => {
    // Two writers inserting several texts wait for each other in a cycle (deadlock, 500) when
    // they insert them in different orders. Both insert by tagKey; the rows' physical order in a
    // table nobody deleted from shows the order they were inserted in.
    const tenant = newTenant();
    const inserted = async (list: string) =>
      (
        await t.sql<{ text: string }>(
          `SELECT text FROM "SettingsEntry"
           WHERE "tenantId" = $1 AND list = $2::"PeopleSettingsList" ORDER BY ctid`,
          [tenant, list],
        )
      ).map((r) => r.text);
    const texts = ['Zulu', 'alpha', 'Mike', 'bravo', 'Echo'];
    const sorted = ['alpha', 'bravo', 'Echo', 'Mike', 'Zulu'];
    const s2 = await t.rest(
      tenant,
      'POST',
      '/people-settings/orga-tags',
      texts.map((text) => ({ text })),
    );
    // answered in input order all the same
    expect(s2.body.data.map((e: { text: string }) => e.text)).toEqual(texts);
    expect(await inserted('ORGA_TAGS')).toEqual(sorted);
    const person = await t.rest(tenant, 'POST', '/people', {
      personalities: texts.map((text) => ({ text })),
    });
    expect(person.body.data.personalities.map((e: { text: string }) => e.text)).toEqual(texts);
    expect(await inserted('PERSONALITY_TAGS')).toEqual(sorted);
  });
});
