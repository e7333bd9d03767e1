import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedLookup, isPublicAddress, resolvePublic } from './address-guard';
import { WebhookSender } from './webhook-sender';
import { checkEndpointUrl } from './webhook-url';

// The SSRF guard: which addresses count as public, in every notation an attacker may use, and
// that the lookup given to the HTTP agent refuses a name that resolves to a private address.

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    // decimal, hex and octal forms of 127.0.0.1 (ipaddr.js parses the classic inet_aton forms)
    '2130706433',
    '0x7f000001',
    '0x7f.0.0.1',
    '0177.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '100.63.255.255', '172.32.0.1', '2606:4700:4700::1111'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('checkEndpointUrl (private addresses not allowed)', () => {
  it.each([
    ['https://127.0.0.1/hook', 'privateAddress'],
    ['https://2130706433/hook', 'privateAddress'], // the URL parser makes it 127.0.0.1
    ['https://0x7f000001/hook', 'privateAddress'],
    ['https://[::1]/hook', 'privateAddress'],
    ['https://[::ffff:127.0.0.1]/hook', 'privateAddress'],
    ['https://[fe80::1]/hook', 'privateAddress'],
    ['https://169.254.169.254/latest/meta-data', 'privateAddress'],
    ['https://localhost/hook', 'privateAddress'],
    ['http://8.8.8.8/hook', 'httpsUrl'],
    ['ftp://8.8.8.8/hook', 'httpsUrl'],
    ['https://user:pw@8.8.8.8/hook', 'urlCredentials'],
    ['not a url', 'url'],
    [`https://8.8.8.8/${'ä'.repeat(400)}`, 'urlTooLong'],
    ['https://nothing.invalid/hook', 'unresolvable'],
  ])('%s: %s', async (url, rule) => {
    const checked = await checkEndpointUrl(url, false);
    expect(checked).toEqual({ problem: expect.objectContaining({ field: 'url', rule }) });
  });

  it('accepts a public https address and drops the fragment', async () => {
    expect(await checkEndpointUrl('https://8.8.8.8/hook?a=1#x', false)).toEqual({
      url: 'https://8.8.8.8/hook?a=1',
    });
  });

  it('allows http and loopback where the operator allows private addresses', async () => {
    expect(await checkEndpointUrl('http://127.0.0.1:9/x', true)).toEqual({
      url: 'http://127.0.0.1:9/x',
    });
  });
});

describe('resolvePublic and guardedLookup', () => {
  const fake = (addresses: string[]) => () =>
    Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

  it('refuses a name with one private address among public ones', async () => {
    await expect(resolvePublic('mixed.example', fake(['8.8.8.8', '10.0.0.5']))).rejects.toThrow(
      /10\.0\.0\.5/,
    );
  });

  it('answers the checked address to the connection, and refuses a rebinding', async () => {
    const lookup = guardedLookup(fake(['93.184.216.34']));
    const ok = await new Promise<unknown[]>((resolve) =>
      lookup('example.com', {}, (err, address, family) => resolve([err, address, family])),
    );
    expect(ok).toEqual([null, '93.184.216.34', 4]);
    const all = await new Promise<unknown[]>((resolve) =>
      lookup('example.com', { all: true }, (err, address) => resolve([err, address])),
    );
    expect(all).toEqual([null, [{ address: '93.184.216.34', family: 4 }]]);

    const rebound = guardedLookup(fake(['127.0.0.1']));
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      rebound('example.com', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('EWEBHOOKFORBIDDEN');
  });
});

describe('WebhookSender with private addresses not allowed', () => {
  let server: http.Server;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('never connects to a loopback receiver, by literal or by name', async () => {
    const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 2000 });
    const { port } = server.address() as AddressInfo;
    const message = {
      id: 'msg_1',
      body: '{}',
      secret: `whsec_${'a'.repeat(32)}`,
      previousSecret: null,
    };
    const literal = await sender.send({ ...message, url: `http://127.0.0.1:${port}/` });
    const named = await sender.send({ ...message, url: `http://localhost:${port}/` });
    await sender.close();
    expect(literal).toMatchObject({ succeeded: false, responseCode: null });
    expect(named).toMatchObject({ succeeded: false, responseCode: null });
    expect(named.error).toMatch(/not a public address/);
    expect(hits).toBe(0);

    const allowed = new WebhookSender({ allowPrivate: true, timeoutMs: 2000 });
    const sent = await allowed.send({ ...message, url: `http://localhost:${port}/` });
    await allowed.close();
    expect(sent).toMatchObject({ succeeded: true, responseCode: 200 });
    expect(hits).toBe(1);
  });
});
