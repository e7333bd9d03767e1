import { ServiceTestKit } from '@crm/testing';
import { PrismaService } from '../../database/prisma.service';
import type { PeopleSettingsList } from '../../generated/prisma/client';
import { startCrmPeople } from '../../test/service-harness';
import { inTenant } from '../../test/tenant-scope';

// Shared by the integration tests of business cards: a running crm-people and small helpers.

export class CardTestKit extends ServiceTestKit {
  static async start(dbName: string): Promise<CardTestKit> {
    return new CardTestKit(await startCrmPeople(dbName));
  }

  get prisma(): PrismaService {
    return this.svc.app.get(PrismaService);
  }

  /** A person of `tenant` (through P3), returns its id. */
  async person(tenant = this.A, body: Record<string, unknown> = {}): Promise<string> {
    const res = await this.call(
      'POST',
      '/people',
      { firstname: 'Anna', lastname: 'Schmidt', ...body },
      tenant,
    );
    if (res.status !== 201) throw new Error(`create person: ${res.text}`);
    return res.body.data.id;
  }

  /** An entry of a tenant's settings list (the settings API is another part of the service). */
  async entry(tenant: string, list: PeopleSettingsList, text: string): Promise<string> {
    const row = await inTenant(tenant, () =>
      this.prisma.settingsEntry.create({ data: { tenantId: tenant, list, text } }),
    );
    return row.id;
  }

  async card(personId: string, body: Record<string, unknown> = {}, tenant = this.A) {
    const res = await this.call('POST', `/people/${personId}/business-cards`, body, tenant);
    if (res.status !== 201) throw new Error(`create card: ${res.text}`);
    return res.body.data;
  }
}
