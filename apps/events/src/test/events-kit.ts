import { randomUUID } from 'node:crypto';
import { asTenant } from '@crm/request-context';
import {
  ServiceTestKit,
  StoredFilesUnderTest,
  TestS3Server,
  withFileStorage,
  withS3FileStorage,
} from '@crm/testing';
import { PrismaService } from '../database/prisma.service';
import { RunningService, startEvents } from './service-harness';

export interface EventsUnderTest extends RunningService, StoredFilesUnderTest {
  db: PrismaService;
}

/**
 * The real events app with its files in a temporary folder (or, given `s3`, a fresh bucket of
 * that server), tenants A and B, and fixtures written straight into the database (events and
 * websites whose own routes are not what a test is about), written through the app's client as
 * their tenant, as the app writes them (row-level security holds the test's reads too: `db` sees
 * nothing outside asTenant or acrossTenants).
 */
export class EventsKit extends ServiceTestKit<EventsUnderTest> {
  static async start(
    dbName: string,
    env: Record<string, string> = {},
    s3?: TestS3Server,
  ): Promise<EventsKit> {
    const start = async (storage: Record<string, string>) => {
      const s = await startEvents(dbName, { ...storage, ...env });
      return { ...s, db: s.app.get(PrismaService) };
    };
    const svc = s3
      ? await withS3FileStorage('events', s3, start)
      : await withFileStorage('events', start);
    return new EventsKit(svc);
  }

  get db(): PrismaService {
    return this.svc.db;
  }

  async event(
    data: { title?: string; published?: boolean; websiteIds?: string[]; note?: string } = {},
    tenant = this.A,
  ): Promise<string> {
    const row = await asTenant(
      tenant,
      async () =>
        await this.db.event.create({
          data: {
            tenantId: tenant,
            title: data.title ?? 'Summer conference',
            timeZone: 'Europe/Berlin',
            published: data.published ?? false,
            note: data.note ?? null,
            websites: {
              create: (data.websiteIds ?? []).map((websiteId) => ({ tenantId: tenant, websiteId })),
            },
          },
          select: { id: true },
        }),
    );
    return row.id;
  }

  async website(
    data: { url?: string; published?: boolean; name?: string } = {},
    tenant = this.A,
  ): Promise<string> {
    // Hex only: a random part spelled in base 36 once held "amm" and answered a test's `q=amm`.
    const url = data.url ?? `https://p-${randomUUID()}.example.com/`;
    const row = await asTenant(
      tenant,
      async () =>
        await this.db.website.create({
          data: {
            tenantId: tenant,
            name: data.name ?? 'Portal',
            url,
            urlKey: url.replace(/^https?:\/\//, '').replace(/\/+$/, ''),
            published: data.published ?? false,
          },
          select: { id: true },
        }),
    );
    return row.id;
  }

  override async close(): Promise<void> {
    await this.svc?.stop();
  }
}
