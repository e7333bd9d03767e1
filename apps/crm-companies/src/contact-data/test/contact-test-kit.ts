import { ServiceTestKit } from '@crm/testing';
import { PrismaService } from '../../database/prisma.service';
import type { AddressRow, ContactKind, EmailRow, PhoneRow } from '../contact-data.repository';
import { seeingEveryTenant } from '../../test/every-tenant';
import { startCrmCompanies } from '../../test/service-harness';

// Shared by the integration tests of contact data: a running crm-companies and small helpers.

const PATHS: Record<ContactKind, string> = {
  address: 'addresses',
  phone: 'phones',
  email: 'emails',
};

export class ContactTestKit extends ServiceTestKit {
  static async start(dbName: string): Promise<ContactTestKit> {
    return new ContactTestKit(await startCrmCompanies(dbName));
  }

  get prisma(): PrismaService {
    return seeingEveryTenant(this.svc.app.get(PrismaService));
  }

  /**
   * A company of `tenant`, written straight into the database: the companies routes (C4) are
   * another part of the service, and these tests need only its row.
   */
  async company(tenant = this.A): Promise<string> {
    const row = await this.prisma.company.create({ data: { tenantId: tenant, name: 'Acme GmbH' } });
    return row.id;
  }

  /** A tenant entry of the email-types list. */
  async emailType(tenant: string, text: string): Promise<string> {
    const row = await this.prisma.companySettingsEntry.create({
      data: { tenantId: tenant, list: 'EMAIL_TYPES', text },
    });
    return row.id;
  }

  /** The REST path of a company's list. */
  path(companyId: string, kind: ContactKind): string {
    return `/companies/${companyId}/${PATHS[kind]}`;
  }

  /** Creates an item through the API (201 expected) and answers it. */
  async add(companyId: string, kind: ContactKind, body: Record<string, unknown>) {
    const res = await this.call('POST', this.path(companyId, kind), body);
    if (res.status !== 201) throw new Error(`create ${kind}: ${res.text}`);
    return res.body.data;
  }

  /** The stored rows of a company's list, in list order. */
  rows(companyId: string, kind: 'address'): Promise<AddressRow[]>;
  rows(companyId: string, kind: 'phone'): Promise<PhoneRow[]>;
  rows(companyId: string, kind: 'email'): Promise<EmailRow[]>;
  rows(companyId: string, kind: ContactKind): Promise<(AddressRow | PhoneRow | EmailRow)[]>;
  async rows(companyId: string, kind: ContactKind): Promise<(AddressRow | PhoneRow | EmailRow)[]> {
    const args = {
      where: { companyId },
      orderBy: [{ position: 'asc' as const }, { dateCreated: 'asc' as const }],
    };
    if (kind === 'address') return this.prisma.companyAddress.findMany(args);
    if (kind === 'phone') return this.prisma.companyPhone.findMany(args);
    return this.prisma.companyEmail.findMany(args);
  }

  /** The list as [label, isFavorite] pairs (label: city, number or e-mail). */
  async state(companyId: string, kind: ContactKind): Promise<[string | null, boolean][]> {
    const rows = await this.rows(companyId, kind);
    return rows.map((r) => [
      'city' in r ? r.city : 'number' in r ? r.number : r.email,
      r.isFavorite,
    ]);
  }
}

/** `field:rule` of each error of an answer, sorted. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- error lists of REST and GraphQL
export const fieldRules = (errors: any[]) =>
  errors.map((e: { field: string; rule: string }) => `${e.field}:${e.rule}`).sort();

/**
 * Every case of the favorite rule on one list, through the API. `body(n)` is a create body of
 * item n, `label(n)` how that item shows in ContactTestKit.state.
 */
export async function favoriteCases(
  kit: ContactTestKit,
  kind: ContactKind,
  body: (n: number) => Record<string, unknown>,
  label: (n: number) => string,
): Promise<void> {
  const companyId = await kit.company();
  const path = kit.path(companyId, kind);
  const state = () => kit.state(companyId, kind);
  const [l0, l1, l2, l3] = [0, 1, 2, 3].map(label);

  // the first item becomes the favorite without being marked; another unmarked one does not
  const i0 = await kit.add(companyId, kind, body(0));
  expect(i0.isFavorite).toBe(true);
  const i1 = await kit.add(companyId, kind, { ...body(1), isFavorite: false });
  expect(i1.isFavorite).toBe(false);
  expect(await state()).toEqual([
    [l0, true],
    [l1, false],
  ]);

  // a new item marked favorite takes the status from the previous favorite
  const i2 = await kit.add(companyId, kind, { ...body(2), isFavorite: true });
  expect(i2.isFavorite).toBe(true);
  expect(await state()).toEqual([
    [l0, false],
    [l1, false],
    [l2, true],
  ]);

  // an update marking another item moves the status; an update without isFavorite keeps it
  let res = await kit.call('PUT', `${path}/${i1.id}`, { isFavorite: true });
  expect(res.status).toBe(200);
  expect(res.body.data.isFavorite).toBe(true);
  res = await kit.call('PUT', `${path}/${i0.id}`, {});
  expect(res.body.data.isFavorite).toBe(false);
  expect(await state()).toEqual([
    [l0, false],
    [l1, true],
    [l2, false],
  ]);

  // isFavorite false on another item changes nothing
  res = await kit.call('PUT', `${path}/${i2.id}`, { isFavorite: false });
  expect(res.body.data.isFavorite).toBe(false);
  expect((await state()).map(([, f]) => f)).toEqual([false, true, false]);

  // unmarking the only favorite: the first element becomes the favorite
  res = await kit.call('PUT', `${path}/${i1.id}`, { isFavorite: false });
  expect(res.body.data.isFavorite).toBe(false);
  expect(await state()).toEqual([
    [l0, true],
    [l1, false],
    [l2, false],
  ]);

  // unmarking the favorite that is the first element: it stays the favorite
  res = await kit.call('PUT', `${path}/${i0.id}`, { isFavorite: false });
  expect(res.body.data.isFavorite).toBe(true);
  expect((await state()).map(([, f]) => f)).toEqual([true, false, false]);

  // deleting a non-favorite: the favorite stays
  res = await kit.call('DELETE', `${path}/${i1.id}`);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ id: i1.id, newFavoriteId: null });

  // deleting the favorite: the first remaining item becomes the favorite
  const i3 = await kit.add(companyId, kind, body(3));
  expect(i3.isFavorite).toBe(false);
  res = await kit.call('DELETE', `${path}/${i0.id}`);
  expect(res.body.data).toEqual({ id: i0.id, newFavoriteId: i2.id });
  expect(await state()).toEqual([
    [l2, true],
    [l3, false],
  ]);

  // new items go to the end; deleting everything leaves an empty list
  const positions = (await kit.rows(companyId, kind)).map((r) => r.position);
  expect(positions).toEqual([2, 3]);
  await kit.call('DELETE', `${path}/${i3.id}`);
  res = await kit.call('DELETE', `${path}/${i2.id}`);
  expect(res.body.data).toEqual({ id: i2.id, newFavoriteId: null });
  expect(await state()).toEqual([]);
}
