import { downstreamResponseHeaders, upstreamRequestHeaders } from './upstream-headers';

describe('upstreamRequestHeaders', () => {
  const incoming = {
    host: 'api.example.com',
    'x-integration-name': 'n',
    'x-integration-provider': 'p',
    'x-service-tenantid': 't',
    'accept-language': 'de',
    authorization: 'Bearer k',
    'content-type': 'multipart/form-data; boundary=x',
    'content-length': '123',
    'x-caller-id': 'forged',
    'x-internal-token': 'forged',
    connection: 'keep-alive, x-hop',
    'x-hop': 'dropped',
    'keep-alive': 'timeout=5',
    expect: '100-continue',
    'x-request-id': 'r1',
    'x-forwarded-for': '10.0.0.1',
  };

  it('passes the message headers, drops hop-by-hop ones, the API key and forged identity', () => {
    const out = upstreamRequestHeaders(incoming, {
      callerId: 'key-1',
      internalToken: 'secret',
      host: '127.0.0.1:3001',
      clientAddress: '10.0.0.2',
    });
    expect(out).toEqual({
      host: '127.0.0.1:3001',
      'x-forwarded-host': 'api.example.com',
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
      'x-integration-name': 'n',
      'x-integration-provider': 'p',
      'x-service-tenantid': 't',
      'accept-language': 'de',
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': '123',
      'x-request-id': 'r1',
      'x-caller-id': 'key-1',
      'x-internal-token': 'secret',
    });
  });

  it('sends no caller id and no token when there are none', () => {
    const out = upstreamRequestHeaders(incoming, { callerId: null, host: 'svc:1' });
    expect(out['x-caller-id']).toBeUndefined();
    expect(out['x-internal-token']).toBeUndefined();
  });

  it('drops Transfer-Encoding: the gateway frames the body it sends (a stream goes chunked)', () => {
    const out = upstreamRequestHeaders(
      { 'transfer-encoding': 'chunked', 'content-type': 'application/octet-stream' },
      { callerId: null, host: 'svc:1' },
    );
    expect(out).not.toHaveProperty('transfer-encoding');
    expect(out['content-type']).toBe('application/octet-stream');
  });
});

describe('downstreamResponseHeaders', () => {
  it('keeps the service headers except the connection-level ones', () => {
    expect(
      downstreamResponseHeaders({
        'content-type': 'text/vcard',
        'content-disposition': 'attachment; filename="a.vcf"',
        'set-cookie': ['a=1', 'b=2'],
        'transfer-encoding': 'chunked',
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
      }),
    ).toEqual({
      'content-type': 'text/vcard',
      'content-disposition': 'attachment; filename="a.vcf"',
      'set-cookie': ['a=1', 'b=2'],
    });
  });
});
