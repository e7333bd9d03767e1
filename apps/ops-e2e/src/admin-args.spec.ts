import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { callEsm, ROOT, tool } from './support/esm';

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

  it('issues a key with scopes and an expiry', async () => {
    await expect(
      parse(
        'issue-key',
        'acme',
        'reader',
        '--scopes',
        'crm:read, events:write',
        '--expires=2027-01-01T00:00:00Z',
      ),
    ).resolves.toEqual({
      method: 'POST',
      path: '/tenants/acme/api-keys',
      body: {
        name: 'reader',
        scopes: ['crm:read', 'events:write'],
        expiresAt: '2027-01-01T00:00:00Z',
      },
    });
    // Checked by the gateway, which names the wrong entry: passed on as given.
    await expect(
      parse('issue-key', 'acme', 'k', '--scopes', 'crm:read,crm:admin'),
    ).resolves.toMatchObject({ body: { scopes: ['crm:read', 'crm:admin'] } });
    await expect(parse('issue-key', 'acme', 'k', '--expires')).rejects.toThrow(
      'issue-key: --expires needs a value',
    );
    await expect(parse('issue-key', 'acme', 'k', '--scope', 'crm:read')).rejects.toThrow(
      'issue-key: unknown option --scope',
    );
  });

  it('documents the scopes and the expiry in its usage', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      path.join(ROOT, 'tools/admin.mjs'),
      '--help',
    ]);
    expect(stdout).toContain('issue-key <tenantId> <name> [--key <key>] [--scopes <s,...>]');
    expect(stdout).toContain('crm:read,events:write');
    expect(stdout).toContain('--expires <ISO>');
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
