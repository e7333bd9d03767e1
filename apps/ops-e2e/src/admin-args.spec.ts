import { callEsm, tool } from './support/esm';

const CLIENT = tool('tools/dev/admin-client.mjs');
const parse = (...argv: string[]) => callEsm(CLIENT, 'parseAdminArgs', argv);

describe('npm run admin: command line', () => {
  it('maps every command to its admin API request', async () => {
    await expect(
      parse('create-tenant', 'acme', 'ACME Inc.', '--email', 'ops@acme.test'),
    ).resolves.toEqual({
      method: 'POST',
      path: '/tenants',
      body: { id: 'acme', name: 'ACME Inc.', contact: { email: 'ops@acme.test' } },
    });
    await expect(parse('create-tenant', 'acme', 'ACME')).resolves.toMatchObject({
      body: { id: 'acme', name: 'ACME', contact: {} },
    });
    await expect(parse('issue-key', 'acme', 'ci key')).resolves.toEqual({
      method: 'POST',
      path: '/tenants/acme/api-keys',
      body: { name: 'ci key' },
    });
    await expect(
      parse('issue-key', 'acme', 'fixed', '--key=abcdefghijklmnopqrstuvwx'),
    ).resolves.toEqual({
      method: 'POST',
      path: '/tenants/acme/api-keys',
      body: { name: 'fixed', key: 'abcdefghijklmnopqrstuvwx' },
    });
    await expect(parse('revoke-key', 'k/1')).resolves.toEqual({
      method: 'DELETE',
      path: '/api-keys/k%2F1',
    });
    await expect(parse('tariffs')).resolves.toEqual({ method: 'GET', path: '/tariffs' });
    await expect(parse('set-tariff', 'acme', 'complete')).resolves.toEqual({
      method: 'PUT',
      path: '/tenants/acme/tariff',
      body: { tariffId: 'complete' },
    });
  });

  it('asks for help when given nothing or --help', async () => {
    await expect(parse()).resolves.toEqual({ help: true });
    await expect(parse('tariffs', '--help')).resolves.toEqual({ help: true });
  });

  it('explains a wrong command line', async () => {
    await expect(parse('delete-everything')).rejects.toThrow('unknown command "delete-everything"');
    await expect(parse('set-tariff', 'acme')).rejects.toThrow(
      'set-tariff takes <tenantId> <tariffId> (got 1)',
    );
    await expect(parse('tariffs', 'extra')).rejects.toThrow('tariffs takes no arguments (got 1)');
    await expect(parse('revoke-key', 'k1', '--email', 'x')).rejects.toThrow(
      'revoke-key: unknown option --email',
    );
    await expect(parse('create-tenant', 'a', 'b', '--email')).rejects.toThrow(
      'create-tenant: --email needs a value',
    );
  });
});
