import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceTestClient } from './client';
import { tenantHeaders, uploadHeaders } from './headers';

// ServiceTestClient against a plain HTTP server that answers what it was sent.

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let url = '';
let last: Seen;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      last = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      if (req.url?.endsWith('/vcard')) {
        res.writeHead(200, { 'Content-Type': 'text/vcard' }).end('BEGIN:VCARD');
      } else if (req.url?.endsWith('/declared-json')) {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('not json');
      } else {
        res
          .writeHead(201, { 'Content-Type': 'application/json; charset=utf-8', 'X-Test': 'yes' })
          .end(JSON.stringify({ data: { method: req.method } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('ServiceTestClient', () => {
  it('calls REST under /v1/crm with a JSON body and the default headers', async () => {
    const api = new ServiceTestClient(() => url, tenantHeaders('t1'));
    const res = await api.rest('POST', '/people?x=1', { a: 1 });
    expect(last).toMatchObject({ method: 'POST', url: '/v1/crm/people?x=1', body: '{"a":1}' });
    expect(last.headers).toMatchObject({
      'x-service-tenantid': 't1',
      'content-type': 'application/json',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { method: 'POST' } });
    expect(res.text).toBe('{"data":{"method":"POST"}}');
    expect(res.bytes.toString()).toBe(res.text);
    expect(res.headers.get('x-test')).toBe('yes');
  });

  it("replaces the default headers by a call's own, and sends no body when none is given", async () => {
    const api = new ServiceTestClient(url, tenantHeaders('t1'));
    await api.rest('GET', '/x', undefined, { 'X-Only': '1' });
    expect(last.headers['x-only']).toBe('1');
    expect(last.headers['x-service-tenantid']).toBeUndefined();
    expect(last.body).toBe('');
  });

  it('answers the text as body when the answer is not JSON', async () => {
    const api = new ServiceTestClient(url);
    expect((await api.rest('GET', '/vcard')).body).toBe('BEGIN:VCARD');
    expect((await api.rest('GET', '/declared-json')).body).toBe('not json');
  });

  it('restAs and graphqlAs call as a tenant, GraphQL always as JSON', async () => {
    const api = new ServiceTestClient(url);
    await api.restAs('t2', 'DELETE', '/people/batch', { ids: ['a'] }, { 'Accept-Language': 'de' });
    expect(last).toMatchObject({ method: 'DELETE', body: '{"ids":["a"]}' });
    expect(last.headers).toMatchObject({ 'x-service-tenantid': 't2', 'accept-language': 'de' });

    await api.graphql('{ a }', {}, { 'X-Service-TenantId': 't3' });
    expect(last).toMatchObject({ method: 'POST', url: '/graphql' });
    expect(last.headers['content-type']).toBe('application/json');
    expect(JSON.parse(last.body)).toEqual({ query: '{ a }', variables: {} });

    await api.graphqlAs('t4', 'query($id: ID!) { b(id: $id) }', { id: '1' });
    expect(last.headers['x-service-tenantid']).toBe('t4');
    expect(JSON.parse(last.body).variables).toEqual({ id: '1' });
  });

  it('uploads a file as multipart/form-data, raw bodies as they are', async () => {
    const api = new ServiceTestClient(url);
    await api.upload(
      '/people/1/documents',
      { data: Buffer.from('hello'), name: 'a.txt', type: 'text/plain' },
      uploadHeaders('t5'),
    );
    expect(last.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last.headers['x-service-tenantid']).toBe('t5');
    expect(last.body).toContain('name="file"; filename="a.txt"');
    expect(last.body).toContain('Content-Type: text/plain');
    expect(last.body).toContain('hello');

    await api.upload('/x', { data: 'x', name: 'b.jpg', type: 'image/jpeg', field: 'image' });
    expect(last.body).toContain('name="image"; filename="b.jpg"');

    await api.rest('POST', '/raw', Buffer.from('raw bytes'), { 'Content-Type': 'text/plain' });
    expect(last.body).toBe('raw bytes');
  });
});
