import { connect, JSONCodec, NatsConnection, Subscription } from 'nats';
import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import { NATS_TEST_URL, ServiceTestKit } from '@crm/testing';
import { PrismaService } from '../../database/prisma.service';
import { seeingEveryTenant } from '../../test/every-tenant';
import { RunningService, startCrmCompanies } from '../../test/service-harness';

// Shared by the integration tests of managed-by relations: the real crm-companies (HTTP, GraphQL,
// NATS, database) and, over real NATS, a responder standing in for crm-people's peopleExist.

/** A system entry of crm-people's manager-roles list (every tenant has it). */
export const ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000401';
export const KEY_ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000402';

interface PeopleExistAsk {
  tenantId: string;
  personIds: string[];
  managerRoleIds?: string[];
}

/**
 * Answers peopleExist as crm-people would, from what the test registered; records the asks. Only
 * for the tenants of its kit: the stand-ins of other test files (and runs) hear the same subject,
 * and one must stay silent on asks of another's tenants, or it answers "unknown" for a person it
 * never heard of, or for crm-people that a test has just stopped.
 */
export class PeopleStandIn {
  readonly asked: PeopleExistAsk[] = [];
  private readonly tenants = new Set<string>();
  private readonly people = new Map<string, Set<string>>();
  private readonly roles = new Map<string, Set<string>>();
  private sub: Subscription | null = null;

  constructor(private readonly nc: NatsConnection) {}

  /** The tenants whose asks this stand-in answers. */
  serve(...tenantIds: string[]): void {
    tenantIds.forEach((t) => this.tenants.add(t));
  }

  person(tenantId: string): string {
    const id = randomUUID();
    const set = this.people.get(tenantId) ?? new Set<string>();
    set.add(id);
    this.people.set(tenantId, set);
    return id;
  }

  /** Not a person of `tenantId` any more (crm-people deleted or merged it). */
  forget(tenantId: string, personId: string): void {
    this.people.get(tenantId)?.delete(personId);
  }

  role(tenantId: string): string {
    const id = randomUUID();
    const set = this.roles.get(tenantId) ?? new Set<string>();
    set.add(id);
    this.roles.set(tenantId, set);
    return id;
  }

  async start(): Promise<void> {
    if (this.sub) return;
    const codec = JSONCodec<{ id: string; data: PeopleExistAsk }>();
    this.sub = this.nc.subscribe(Subjects.crmPeople.peopleExist, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data);
        const ask = req.data;
        if (!this.tenants.has(ask.tenantId)) return;
        this.asked.push(ask);
        const people = this.people.get(ask.tenantId) ?? new Set();
        const roles = this.roles.get(ask.tenantId) ?? new Set();
        const response: Record<string, unknown> = {
          missingPersonIds: ask.personIds.filter((id) => !people.has(id)),
        };
        if (ask.managerRoleIds) {
          response.unknownManagerRoleIds = ask.managerRoleIds.filter(
            (id) => ![ACCOUNT_MANAGER, KEY_ACCOUNT_MANAGER].includes(id) && !roles.has(id),
          );
        }
        msg.respond(JSONCodec().encode({ id: req.id, response, isDisposed: true }));
      },
    });
    await this.nc.flush();
  }

  async stop(): Promise<void> {
    this.sub?.unsubscribe();
    this.sub = null;
    await this.nc.flush();
  }
}

export class ManagedByKit extends ServiceTestKit {
  private constructor(
    svc: RunningService,
    readonly nc: NatsConnection,
    readonly people: PeopleStandIn,
  ) {
    super(svc);
  }

  static async start(dbName: string): Promise<ManagedByKit> {
    const svc = await startCrmCompanies(dbName);
    const nc = await connect({ servers: NATS_TEST_URL, name: 'crm-people-stand-in' });
    const people = new PeopleStandIn(nc);
    await people.start();
    const kit = new ManagedByKit(svc, nc, people);
    people.serve(kit.A, kit.B);
    return kit;
  }

  get db(): PrismaService {
    return seeingEveryTenant(this.svc.app.get(PrismaService));
  }

  /** A company of `tenant`, written straight into the database (companies are another domain). */
  async company(tenant = this.A, name = 'Acme'): Promise<string> {
    const row = await this.db.company.create({
      data: { tenantId: tenant, name },
      select: { id: true },
    });
    return row.id;
  }

  /** The relations of a company as stored, oldest first. */
  rows(companyId: string) {
    return this.db.companyManager.findMany({
      where: { companyId },
      orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }],
    });
  }

  override async close(): Promise<void> {
    await this.people.stop().catch(() => undefined);
    await this.nc?.close();
    await super.close();
  }
}
