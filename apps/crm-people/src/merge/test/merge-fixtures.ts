import { randomUUID } from 'node:crypto';
import { ServiceTestClient } from '@crm/testing';
import { PrismaService } from '../../database/prisma.service';
import type { RunningService } from '../../test/service-harness';
import { inTenant } from '../../test/tenant-scope';

// Test support of the merge integration tests: calls, and people with every kind of data that a
// merge moves, written straight into the database (the routes that write them are other tests'),
// each as its tenant (row-level security).

export const PROSPECT = '00000000-0000-4000-a000-000000000102';
export const CUSTOMER = '00000000-0000-4000-a000-000000000103';

export function mergeTestClient(svc: RunningService) {
  const db = svc.app.get(PrismaService);

  const api = new ServiceTestClient(svc.url);
  const { restAs: rest, graphqlAs: gql } = api;

  const person = async (
    tenantId: string,
    data: {
      firstname?: string;
      lastname?: string;
      title?: string | null;
      birthday?: Date;
      considerBirthYear?: boolean;
      lifecycleId?: string;
      note?: string;
      importantDates?: object[];
      socialMedias?: object[];
    },
  ): Promise<string> => {
    const id = randomUUID();
    const { note, ...fields } = data;
    await inTenant(tenantId, () =>
      db.person.create({
        data: {
          id,
          tenantId,
          ...fields,
          lifecycleChanged: data.lifecycleId ? new Date('2024-01-01T00:00:00Z') : undefined,
          note: note ? { create: { tenantId, note } } : undefined,
        },
      }),
    );
    return id;
  };

  /** A tenant entry of a tag list. */
  const entry = async (tenantId: string, list: 'ORGA_TAGS' | 'PERSONALITY_TAGS', text: string) =>
    (
      await inTenant(tenantId, () =>
        db.settingsEntry.create({ data: { tenantId, list, text, category: 'DISC' } }),
      )
    ).id;

  const tag = (
    tenantId: string,
    personId: string,
    entryId: string,
    kind: 'ORGA' | 'PERSONALITY',
    position: number,
  ) =>
    inTenant(tenantId, () =>
      db.personTag.create({ data: { tenantId, personId, entryId, kind, position } }),
    );

  const history = (tenantId: string, personId: string, lifecycleId: string, at: string) =>
    inTenant(tenantId, () =>
      db.lifecycleHistory.create({
        data: { tenantId, personId, lifecycleId, dateChanged: new Date(at) },
      }),
    );

  const card = async (tenantId: string, personId: string, isFavorite = false, city = 'Berlin') =>
    (
      await inTenant(tenantId, () =>
        db.businessCard.create({
          data: {
            tenantId,
            personId,
            isFavorite,
            markAsFavorite: isFavorite,
            addresses: { create: [{ tenantId, city, isFavorite: true }] },
          },
        }),
      )
    ).id;

  /** A relation and its inverse, linked both ways, as R2 writes them. */
  const relate = async (
    tenantId: string,
    from: string,
    to: string,
    type = 'colleague',
    inverseType = 'colleague',
    at = new Date(),
  ): Promise<[string, string]> => {
    const [a, b] = [randomUUID(), randomUUID()];
    await inTenant(tenantId, () =>
      db.personRelation.createMany({
        data: [
          {
            id: a,
            tenantId,
            fromPersonId: from,
            toPersonId: to,
            typeIdentifier: type,
            inverseId: b,
            dateCreated: at,
          },
          {
            id: b,
            tenantId,
            fromPersonId: to,
            toPersonId: from,
            typeIdentifier: inverseType,
            inverseId: a,
            dateCreated: at,
          },
        ],
      }),
    );
    return [a, b];
  };

  const touchpoint = async (tenantId: string, personIds: string[]) =>
    (
      await inTenant(tenantId, () =>
        db.touchpoint.create({
          data: {
            tenantId,
            type: 'call',
            subject: 'Call',
            start: new Date(),
            people: { create: personIds.map((personId) => ({ tenantId, personId })) },
          },
        }),
      )
    ).id;

  const document = async (tenantId: string, personId: string, fileName: string) =>
    (
      await inTenant(tenantId, () =>
        db.personDocument.create({
          data: {
            tenantId,
            personId,
            fileName,
            contentType: 'text/plain',
            size: 3,
            storageKey: `${tenantId}/${randomUUID()}`,
          },
        }),
      )
    ).id;

  /** Every row of the tenant in every table a merge touches, in a stable order. */
  const snapshot = (tenantId: string) => inTenant(tenantId, () => snapshotOf(tenantId));
  const snapshotOf = async (tenantId: string) => {
    const where = { where: { tenantId } };
    return JSON.stringify([
      await db.person.findMany({ ...where, orderBy: { id: 'asc' } }),
      await db.personNote.findMany({ ...where, orderBy: { personId: 'asc' } }),
      await db.personTag.findMany({
        ...where,
        orderBy: [{ personId: 'asc' }, { kind: 'asc' }, { entryId: 'asc' }],
      }),
      await db.lifecycleHistory.findMany({ ...where, orderBy: { id: 'asc' } }),
      await db.businessCard.findMany({ ...where, orderBy: { id: 'asc' } }),
      await db.cardAddress.findMany({ ...where, orderBy: { id: 'asc' } }),
      await db.personRelation.findMany({ ...where, orderBy: { id: 'asc' } }),
      await db.touchpointPerson.findMany({
        ...where,
        orderBy: [{ touchpointId: 'asc' }, { personId: 'asc' }],
      }),
      await db.personDocument.findMany({ ...where, orderBy: { id: 'asc' } }),
      // Which events exist, not whether the relay has published them yet.
      await db.outboxEvent.findMany({
        ...where,
        orderBy: { id: 'asc' },
        select: { id: true, subject: true, payload: true },
      }),
    ]);
  };

  return {
    db,
    rest,
    gql,
    person,
    entry,
    tag,
    history,
    card,
    relate,
    touchpoint,
    document,
    snapshot,
  };
}
