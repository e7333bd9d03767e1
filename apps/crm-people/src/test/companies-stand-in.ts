import { connect, JSONCodec, NatsConnection, Subscription } from 'nats';
import { CompanyExistsRequest, Subjects } from '@crm/messaging';
import { NATS_TEST_URL } from '@crm/testing';

const codec = JSONCodec<{ id: string; data: CompanyExistsRequest }>();

/**
 * Answers crm-companies' companyExists over real NATS as Nest's transport does, from the
 * companies a test registered per tenant, and records what it was asked. crm-people's
 * integration tests cannot start crm-companies (apps never import each other); the end-to-end
 * specs use the real service.
 */
export class CompaniesStandIn {
  readonly asked: CompanyExistsRequest[] = [];
  private readonly known = new Map<string, Set<string>>();
  private sub: Subscription | null = null;

  private constructor(private readonly nc: NatsConnection) {}

  static async connect(): Promise<CompaniesStandIn> {
    return new CompaniesStandIn(
      await connect({ servers: NATS_TEST_URL, name: 'crm-companies-stand-in' }),
    );
  }

  /** A company of `tenantId` from now on. */
  add(tenantId: string, companyId: string): string {
    const set = this.known.get(tenantId) ?? new Set<string>();
    set.add(companyId.toLowerCase());
    this.known.set(tenantId, set);
    return companyId;
  }

  /** Not a company of `tenantId` any more (crm-companies deleted it). */
  remove(tenantId: string, companyId: string): void {
    this.known.get(tenantId)?.delete(companyId.toLowerCase());
  }

  /** Starts answering (until `stop`); without it requests go unanswered (crm-companies down). */
  async start(): Promise<void> {
    if (this.sub) return;
    this.sub = this.nc.subscribe(Subjects.crmCompanies.companyExists, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data);
        this.asked.push(req.data);
        const exists = !!this.known.get(req.data.tenantId)?.has(req.data.companyId.toLowerCase());
        msg.respond(JSONCodec().encode({ id: req.id, response: { exists }, isDisposed: true }));
      },
    });
    await this.nc.flush();
  }

  async stop(): Promise<void> {
    this.sub?.unsubscribe();
    this.sub = null;
    await this.nc.flush();
  }

  async close(): Promise<void> {
    await this.nc.close();
  }
}
