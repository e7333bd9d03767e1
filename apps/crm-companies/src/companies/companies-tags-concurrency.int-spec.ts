import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { tenantHeaders } from '@crm/testing';
import { COMPANY_SETTINGS } from '../settings/settings-lists';
import { startCrmCompanies, RunningService } from '../test/service-harness';
import { companyTestClient } from './test/company-test-client';

// Tags named by text under concurrency: no settings lock on that path, the unique index ignoring
// case keeps one entry per text, S2 racing it answers 201 or 409.

// slow when the machine is busy (2 cores shared with other test runs)
jest.setTimeout(60000);

let svc: RunningService;
let t: ReturnType<typeof companyTestClient>;

beforeAll(async () => {
  svc = await startCrmCompanies('crm_companies_it_tag_race');
  t = companyTestClient(svc);
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const newTenant = () => `tenant-race-${randomUUID().slice(0, 8)}`;
const SPELLINGS = (text: string) => [text, text.toUpperCase(), text.toLowerCase(), ` ${text} `];

/** The tenant's tags whose text is `text` ignoring case. */
const tagsNamed = (tenant: string, text: string) =>
  t.sql<{ id: string; text: string }>(
    `SELECT id::text, text FROM "CompanySettingsEntry"
     WHERE "tenantId" = $1 AND list = 'TAGS' AND lower(text) = lower($2)`,
    [tenant, text],
  );

describe('C4 POST /companies with tags by text, concurrently', () => {
  it('50 creates naming one new text in different cases: all 201, one entry, shared', async () => {
    const tenant = newTenant();
    const spellings = SPELLINGS('Perf');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.rest(tenant, 'POST', '/companies', {
          name: `Racer ${i}`,
          tags: [{ text: spellings[i % spellings.length] }],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const entries = await tagsNamed(tenant, 'perf');
    expect(entries).toHaveLength(1);
    for (const a of answers)
      expect(a.body.data.tags).toEqual([{ id: entries[0].id, text: entries[0].text, color: null }]);
    const links = await t.sql<{ n: number }>(
      `SELECT count(DISTINCT "companyId")::int AS n FROM "CompanyTag" WHERE "entryId" = $1`,
      [entries[0].id],
    );
    expect(links[0].n).toBe(50);
  });

  it('does not wait for the settings lock: a new tag text is created while S2 holds it', async () => {
    const tenant = newTenant();
    const db = new Client({ connectionString: svc.databaseUrl });
    await db.connect();
    await db.query('BEGIN');
    await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `${COMPANY_SETTINGS.definition.lockKeyPrefix}:${tenant}`,
    ]);
    let s2: Promise<{ status: number }> | undefined;
    try {
      // the lock is the one S2 takes: S2 waits for it, creates with a new tag text do not
      let s2Done = false;
      s2 = t.rest(tenant, 'POST', '/company-settings/tags', { text: 'Admin' }).then((r) => {
        s2Done = true;
        return r;
      });
      const res = await fetch(`${svc.url}/v1/crm/companies`, {
        method: 'POST',
        headers: tenantHeaders(tenant),
        body: JSON.stringify({ name: 'Unlocked', tags: [{ text: 'Unlocked' }] }),
        signal: AbortSignal.timeout(5000),
      });
      expect(res.status).toBe(201);
      expect(s2Done).toBe(false);
    } finally {
      await db.query('ROLLBACK');
      await db.end();
    }
    expect((await s2!).status).toBe(201);
  });

  it('S2 creating the text that companies name meanwhile: 201 or 409 textTaken, never a 500', async () => {
    const tenant = newTenant();
    for (let round = 0; round < 8; round++) {
      const text = `Race ${round}`;
      const [s2, ...companies] = await Promise.all([
        t.rest(tenant, 'POST', '/company-settings/tags', { text }),
        ...SPELLINGS(text).map((spelling, i) =>
          t.rest(tenant, 'POST', '/companies', { name: `C${i}`, tags: [{ text: spelling }] }),
        ),
      ]);
      expect([201, 409]).toContain(s2.status);
      if (s2.status === 409) {
        expect(s2.body.errors).toEqual([
          expect.objectContaining({ field: 'text', rule: 'textTaken' }),
        ]);
      }
      expect(companies.map((c) => c.status)).toEqual(companies.map(() => 201));
      const entries = await tagsNamed(tenant, text);
      expect(entries).toHaveLength(1);
      for (const c of companies) expect(c.body.data.tags[0].id).toBe(entries[0].id);
      if (s2.status === 201) expect(s2.body.data.id).toBe(entries[0].id);
    }
  });
});
