import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { metricValue, ServiceTestClient, tenantHeaders } from '@crm/testing';
import { startReplica } from '../test/service-harness';
import type { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import { IMPORT_LOCK_SPACE } from './import-jobs.repository';
import {
  copiedEvent,
  eventually,
  PeopleStandIn,
  startInvitationKit,
} from './test/invitation-test-kit';

// IN13 preview and IN14 import as a job, against the real service (its worker runs the jobs),
// database and NATS (crm-people stand-in for person ids in files).

jest.setTimeout(120000);

let t: TicketTestKit;
let people: PeopleStandIn;
beforeAll(async () => {
  ({ t, people } = await startInvitationKit('bookings_invitations_it_invitation_import'));
}, 90000);
afterAll(async () => t?.close());

const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function upload(
  path: string,
  file: { data: Buffer | string; name: string; type: string } | null,
  eventId: string | null,
  tenant = t.A,
  lang = 'en',
  api: ServiceTestClient = t.api,
) {
  const form = new FormData();
  if (eventId) form.append('eventId', eventId);
  if (file) form.append('file', new Blob([file.data], { type: file.type }), file.name);
  const headers = tenantHeaders(tenant, { 'Accept-Language': lang });
  delete headers['Content-Type']; // fetch writes the multipart boundary
  return api.rest('POST', path, form, headers);
}

const csv = (data: string, name = 'guests.csv') => ({ data, name, type: CSV });

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Gäste');
  rows.forEach((r) => sheet.addRow(r));
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function finished(jobId: string, tenant = t.A) {
  return eventually(async () => {
    const res = await t.call('GET', `/invitations/import/${jobId}`, undefined, tenant);
    expect(res.status).toBe(200);
    return ['done', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
  }, 90000);
}

describe('IN13 preview', () => {
  it('maps German headers of a ;-CSV with BOM, reports each row’s errors and writes nothing', async () => {
    const eventId = await copiedEvent(t, t.A);
    const known = people.person(t.A, { firstname: 'Petra', email: 'petra@example.com' });
    const taken = `taken-${randomUUID().slice(0, 6)}@example.com`;
    await t.call('POST', '/invitations', { eventId, email: taken });
    const file =
      '\uFEFFE-Mail; Vorname ;Nachname;Sprache;Person-ID;Firma\n' +
      'jana@example.com;Jana;Jung;de;;ACME\n' +
      'kein-mail;Karl;;en;;\n' +
      `;;;;${known};\n` +
      `;;;;${randomUUID()};\n` +
      'JANA@example.com;Jana;2;;;\n' +
      `${taken};Tim;;fr;;\n` +
      `${taken};Tim;;;;\n`;
    const res = await upload('/invitations/import/preview', csv(file), eventId);
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect(p.columns).toEqual([
      { header: 'E-Mail', field: 'email' },
      { header: 'Vorname', field: 'firstname' },
      { header: 'Nachname', field: 'lastname' },
      { header: 'Sprache', field: 'language' },
      { header: 'Person-ID', field: 'personId' },
      { header: 'Firma', field: null },
    ]);
    expect(p.totalRows).toBe(7);
    expect(p.rows[0]).toMatchObject({
      row: 2,
      email: 'jana@example.com',
      firstname: 'Jana',
      language: 'de',
    });
    expect(p.rows[2]).toMatchObject({ row: 4, email: 'petra@example.com', firstname: 'Petra' });
    const rule = (row: number) =>
      p.errors
        .find((e: { row: number }) => e.row === row)
        ?.errors.map((x: { rule: string }) => x.rule);
    expect(rule(3)).toEqual(['email']);
    expect(rule(5)).toEqual(['unknownPerson']);
    expect(rule(6)).toEqual(['duplicateInFile']);
    expect(rule(7)).toEqual(['language']);
    expect(p.errors).toHaveLength(4);
    expect(p.validRows).toBe(3);
    expect(p.alreadyInvited).toBe(1);
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(1);
    expect(await t.count('ImportJob', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });

  it('reads XLSX with English headers, errors in German on request', async () => {
    const eventId = await copiedEvent(t, t.A);
    const data = await xlsx([
      ['First Name', 'Last_Name', 'EMAIL'],
      ['Xaver', 'X', 'xaver@example.com'],
      ['Yvonne', 'Y', 'not-an-address'],
    ]);
    const res = await upload(
      '/invitations/import/preview',
      { data, name: 'gäste.xlsx', type: XLSX },
      eventId,
      t.A,
      'de',
    );
    expect(res.status).toBe(200);
    expect(res.body.data.columns.map((c: { field: string }) => c.field)).toEqual([
      'firstname',
      'lastname',
      'email',
    ]);
    expect(res.body.data.rows[0]).toMatchObject({ email: 'xaver@example.com', firstname: 'Xaver' });
    expect(res.body.data.errors[0].errors[0].message).toContain('E-Mail-Adresse');
  });

  it('refuses other types (415), large files (413), no file, no event, no address column (400)', async () => {
    const eventId = await copiedEvent(t, t.A);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100)]);
    const type = await upload(
      '/invitations/import/preview',
      { data: png, name: 'a.png', type: 'image/png' },
      eventId,
    );
    expect(type.status).toBe(415);
    const big = await upload(
      '/invitations/import',
      csv('email\n' + 'a@example.com\n'.repeat(800_000)),
      eventId,
    );
    expect(big.status).toBe(413);
    const none = await upload('/invitations/import/preview', null, eventId);
    expect(none.status).toBe(400);
    const noEvent = await upload('/invitations/import/preview', csv('email\na@b.de\n'), null);
    expect(noEvent.status).toBe(400);
    const noColumn = await upload('/invitations/import', csv('Name;Firma\nA;B\n'), eventId);
    expect(noColumn.status).toBe(400);
    expect(noColumn.body.errors).toEqual([
      expect.objectContaining({ field: 'file', rule: 'noEmailColumn' }),
    ]);
    const broken = await upload(
      '/invitations/import',
      { data: Buffer.from('PK\x03\x04garbage'), name: 'x.xlsx', type: XLSX },
      eventId,
    );
    expect(broken.status).toBe(400);
    const foreign = await upload(
      '/invitations/import',
      csv('email\na@b.de\n'),
      await copiedEvent(t, t.B),
    );
    expect(foreign.status).toBe(404);
    expect(await t.count('ImportJob', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });
});

describe('IN14 import job', () => {
  it('imports 10,000 rows as a job; a second upload of the same file invites nobody twice', async () => {
    const eventId = await copiedEvent(t, t.A);
    const lines = ['email,firstname,lastname'];
    for (let i = 0; i < 10_000; i++) lines.push(`guest${i}@example.com,Guest,${i}`);
    const file = csv(lines.join('\r\n'), 'ten-thousand.csv');

    const started = Date.now();
    const res = await upload('/invitations/import', file, eventId);
    expect(res.status).toBe(202);
    const { jobId } = res.body.data;
    const job = await finished(jobId);
    expect(job).toMatchObject({
      status: 'done',
      totalRows: 10_000,
      processed: 10_000,
      progress: 100,
      created: 10_000,
      skipped: 0,
      failed: 0,
    });
    expect(job.results).toHaveLength(10_000);
    expect(job.results[0]).toEqual({ row: 2, status: 'created', invitationId: expect.any(String) });
    expect(Date.now() - started).toBeLessThan(60_000);
    const none = await t.call('GET', `/invitations/import/${jobId}?results=none`);
    expect(none.body.data).toMatchObject({ created: 10_000, results: null });
    const onlyFailed = await t.call('GET', `/invitations/import/${jobId}?results=failed`);
    expect(onlyFailed.body.data.results).toEqual([]);
    expect((await t.call('GET', `/invitations/import/${jobId}?results=some`)).status).toBe(400);
    expect(
      await t.count('Invitation', `"eventId" = $1::uuid AND "importJobId" = $2::uuid`, [
        eventId,
        jobId,
      ]),
    ).toBe(10_000);
    const [one] = await t.sql<{ token: string; language: string; status: string }>(
      `SELECT token, language, status FROM "Invitation" WHERE "eventId" = $1::uuid AND "emailKey" = 'guest42@example.com'`,
      [eventId],
    );
    expect(one).toMatchObject({ language: 'en', status: 'created' });
    expect(Buffer.from(one.token, 'base64url')).toHaveLength(16);

    const again = await upload('/invitations/import', file, eventId);
    const second = await finished(again.body.data.jobId);
    expect(second).toMatchObject({ status: 'done', created: 0, skipped: 10_000, failed: 0 });
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(10_000);
  });

  it('imported invitations (no website of their own) link to the event’s website, in IN4 and in the mail', async () => {
    const websiteId = randomUUID();
    const eventId = await copiedEvent(t, t.A, {
      websiteIds: [websiteId],
      websites: [{ id: websiteId, invitationLink: 'https://portal.example.org/inv/{token}' }],
    });
    const res = await upload('/invitations/import', csv('email\nimported@example.com\n'), eventId);
    expect(res.status).toBe(202);
    const job = await finished(res.body.data.jobId);
    expect(job).toMatchObject({ status: 'done', created: 1 });
    const id: string = job.results[0].invitationId;
    const read = (await t.call('GET', `/invitations/${id}`)).body.data;
    expect(read.websiteId).toBeNull();
    expect(read.publicUrl).toBe(`https://portal.example.org/inv/${read.token}`);
    expect((await t.call('POST', '/invitations/mails', { ids: [id] })).status).toBe(202);
    const [mail] = await t.sql<{ text: string }>(
      `SELECT text FROM "Mail" WHERE "invitationId" = $1::uuid`,
      [id],
    );
    expect(mail.text).toContain(`https://portal.example.org/inv/${read.token}?action=accept`);
    expect(mail.text).not.toContain('/v1/crm/');
  });

  it('checks person ids over NATS in batches and reports each row; another tenant’s job is a 404', async () => {
    const eventId = await copiedEvent(t, t.A);
    const ids = Array.from({ length: 1500 }, (_, i) =>
      people.person(t.A, {
        firstname: `P${i}`,
        email: `p${i}-${randomUUID().slice(0, 6)}@example.com`,
      }),
    );
    const noMail = people.person(t.A, { email: null });
    const lines = [
      'personId;email;language',
      ...ids.map((id) => `${id};;de`),
      `${noMail};;`,
      `${randomUUID()};;`,
      ';x@y.de;',
    ];
    people.asked.length = 0;
    const res = await upload('/invitations/import', csv(lines.join('\n')), eventId);
    expect(res.status).toBe(202);
    const job = await finished(res.body.data.jobId);
    expect(job).toMatchObject({ status: 'done', created: 1501, failed: 2, skipped: 0 });
    const asked = people.asked.filter((a) => a.tenantId === t.A);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(Math.max(...asked.map((a) => a.personIds.length))).toBeLessThanOrEqual(1000);
    const failedOnly = await t.call(
      'GET',
      `/invitations/import/${res.body.data.jobId}?results=failed`,
    );
    const failed = failedOnly.body.data.results;
    expect(failed.map((r: { errors: { rule: string }[] }) => r.errors[0].rule)).toEqual([
      'noEmail',
      'unknownPerson',
    ]);
    const [row] = await t.sql<{ firstname: string; language: string }>(
      `SELECT firstname, language FROM "Invitation" WHERE "personId" = $1::uuid`,
      [ids[7]],
    );
    expect(row).toEqual({ firstname: 'P7', language: 'de' });

    const foreign = await t.call(
      'GET',
      `/invitations/import/${res.body.data.jobId}`,
      undefined,
      t.B,
    );
    expect(foreign.status).toBe(404);
  });
});

describe('IN14 workers', () => {
  /** A job as an upload writes it, straight into the database. */
  async function jobRow(eventId: string, status: string, emails: string[]) {
    const id = randomUUID();
    const rows = emails.map((email, i) => ({
      row: i + 2,
      email,
      firstname: null,
      lastname: null,
      language: null,
      personId: null,
    }));
    await t.sql(
      `INSERT INTO "ImportJob" (id, "tenantId", "eventId", "fileName", "fileHash", status,
         "totalRows", rows, actor)
       VALUES ($1::uuid, $2, $3::uuid, 'x.csv', repeat('0', 64), $4, $5, $6::jsonb, 'test-suite')`,
      [id, t.A, eventId, status, rows.length, JSON.stringify({ language: 'en', rows })],
    );
    return id;
  }

  it('resumes a job whose worker died: what it inserted counts as created, nothing twice', async () => {
    const eventId = await copiedEvent(t, t.A);
    const emails = ['r1@example.com', 'r2@example.com', 'r3@example.com'];
    const jobId = await jobRow(eventId, 'running', emails);
    const before = randomUUID();
    await t.sql(
      `INSERT INTO "Invitation" (id, "tenantId", "eventId", token, email, "emailKey", language,
         status, "importJobId", "createdBy", "modifiedBy")
       VALUES ($1::uuid, $2, $3::uuid, 'tok-' || $1, 'r1@example.com', 'r1@example.com', 'en',
         'created', $4::uuid, 't', 't')`,
      [before, t.A, eventId, jobId],
    );
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: 'done', created: 3, skipped: 0, failed: 0 });
    expect(job.results[0]).toEqual({ row: 2, status: 'created', invitationId: before });
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(3);
  });

  it('never runs a job another worker holds; takes it once that worker is gone', async () => {
    const eventId = await copiedEvent(t, t.A);
    const held = await jobRow(eventId, 'queued', ['h1@example.com']);
    const other = new pg.Client({ connectionString: t.svc.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [
        IMPORT_LOCK_SPACE,
        held,
      ]);
      // another upload wakes the worker: it runs that one and leaves the held one alone
      const next = await upload('/invitations/import', csv('email\nn1@example.com\n'), eventId);
      expect((await finished(next.body.data.jobId)).status).toBe('done');
      const [row] = await t.sql(`SELECT status FROM "ImportJob" WHERE id = $1::uuid`, [held]);
      expect(row.status).toBe('queued');
      // what an operator sees: one job queued that does not start (every other one is done)
      expect(await metricValue(t.api.url, 'import_jobs', 'status="queued"')).toBe(1);
      expect(await metricValue(t.api.url, 'import_jobs', 'status="running"')).toBe(0);
      await other.query('ROLLBACK'); // the other worker is gone
    } finally {
      await other.end();
    }
    expect(await finished(held)).toMatchObject({ status: 'done', created: 1 });
    expect(await metricValue(t.api.url, 'import_jobs', 'status="queued"')).toBe(0);
  });
});

it('runs each job exactly once with two replicas on one database', async () => {
  const replica = await startReplica(t.svc.databaseUrl, { IMPORT_POLL_INTERVAL_MS: '100' });
  try {
    const eventId = await copiedEvent(t, t.A);
    const apis = [t.api, new ServiceTestClient(replica.url)];
    const jobs = await Promise.all(
      Array.from({ length: 8 }, async (_, j) => {
        const lines = ['email', ...Array.from({ length: 300 }, (_, i) => `j${j}-${i}@example.com`)];
        const res = await upload(
          '/invitations/import',
          csv(lines.join('\n')),
          eventId,
          t.A,
          'en',
          apis[j % 2],
        );
        expect(res.status).toBe(202);
        return res.body.data.jobId as string;
      }),
    );
    for (const jobId of jobs) {
      const job = await finished(jobId);
      expect([jobId, job.status, job.created, job.skipped]).toEqual([jobId, 'done', 300, 0]);
      expect(await t.count('Invitation', `"importJobId" = $1::uuid`, [jobId])).toBe(300);
    }
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(2400);
  } finally {
    await replica.app.close();
  }
});
