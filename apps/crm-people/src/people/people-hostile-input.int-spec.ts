import { randomUUID } from 'node:crypto';
import { ServiceTestClient, tenantHeaders } from '@crm/testing';
import { startCrmPeople, RunningService } from '../test/service-harness';

// Inputs that answered 500 (issue 9): a deeply nested body overflowed class-transformer's stack,
// and a malformed id reached PostgreSQL as a uuid.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
let svc: RunningService;
const { rest: call } = new ServiceTestClient(() => svc.url, tenantHeaders(A));

beforeAll(async () => {
  svc = await startCrmPeople('crm_people_it_hostile_input');
});
afterAll(async () => {
  await svc?.app.close();
});

async function raw(method: string, path: string, body: string, lang = 'en') {
  const res = await fetch(`${svc.url}/v1/crm${path}`, {
    method,
    headers: tenantHeaders(A, { 'Accept-Language': lang }),
    body,
  });
  return { status: res.status, body: (await res.json()) as { errors: { message: string }[] } };
}

describe('bodies nested too deep', () => {
  it('answers 400 naming the rule, translated, for 2,000 nested arrays, and writes nothing', async () => {
    const deep = '['.repeat(2000) + ']'.repeat(2000);
    for (const [method, path] of [
      ['POST', '/people'],
      ['POST', '/people/batch'],
      ['POST', '/touchpoints'],
      ['PUT', `/people/${randomUUID()}/notes`],
    ]) {
      const res = await raw(method, path, deep);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body.errors).toEqual([
        { field: 'body', rule: 'maxDepth', message: 'body is nested deeper than 32 levels' },
      ]);
    }
    const de = await raw(
      'POST',
      '/people',
      `{"firstname":${'['.repeat(40)}${']'.repeat(40)}}`,
      'de',
    );
    expect(de.status).toBe(400);
    expect(de.body.errors[0].message).toBe('body ist tiefer als 32 Ebenen verschachtelt');
    expect((await call('GET', '/people')).body.metaData.totalResults).toBe(0);
  });

  it('still takes a body of ordinary depth', async () => {
    const res = await call('POST', '/people', {
      lastname: 'Nested',
      importantDates: [{ text: 'Founded', date: '2001-02-03' }],
      orgaTags: [{ text: 'Deep enough' }],
    });
    expect(res.status).toBe(201);
  });
});

describe('malformed ids', () => {
  it('DELETE /people/{malformed}/profile-image is the 404 of an unknown person', async () => {
    const res = await call('DELETE', '/people/not-a-uuid/profile-image');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ data: null, statusCode: 404 });
  });
});

describe('U+0000 in texts (PostgreSQL cannot store it: these answered 500)', () => {
  it('answers 400 naming the field, translated, for a body text, a query and a path parameter; writes nothing', async () => {
    const person = (await call('POST', '/people', { lastname: 'Nul' })).body.data.id;
    const note = await raw('PUT', `/people/${person}/notes`, '{"note":"a\\u0000b"}', 'de');
    expect(note.status).toBe(400);
    expect(note.body.errors).toEqual([
      {
        field: 'note',
        rule: 'noNulCharacter',
        message: 'note darf das Zeichen U+0000 (NUL) nicht enthalten',
      },
    ]);
    const search = await call('GET', '/people?q=%00');
    expect(search.status).toBe(400);
    expect(search.body.errors).toEqual([
      {
        field: 'q',
        rule: 'noNulCharacter',
        message: 'q must not contain the character U+0000 (NUL)',
      },
    ]);
    expect((await call('GET', `/people/a%00b`)).status).toBe(400);
    expect((await call('GET', `/people/${person}`)).body.data.notes ?? null).toBeNull();
  });
});
