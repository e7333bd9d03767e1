import { JSONCodec, NatsConnection, Subscription } from 'nats';
import { randomUUID } from 'node:crypto';
import { PersonContact, Subjects } from '@crm/messaging';
import { TicketTestKit } from '../../ticket-types/test/ticket-test-kit';

// The invitations' integration tests: the ticket types' kit (real service on its own
// nats-server, an events stand-in, JetStream snapshots) plus a stand-in for crm-people's
// peopleContacts responder.

/** Answers crm-people.people.contacts from the people registered; records each request. */
export class PeopleStandIn {
  readonly asked: { tenantId: string; personIds: string[] }[] = [];
  private readonly known = new Map<string, Map<string, PersonContact>>();
  private sub: Subscription | null = null;

  constructor(private readonly nc: NatsConnection) {}

  person(tenantId: string, over: Partial<PersonContact> = {}): string {
    const id = randomUUID();
    const mine = this.known.get(tenantId) ?? new Map<string, PersonContact>();
    mine.set(id, {
      id,
      firstname: 'Paula',
      lastname: 'Person',
      email: `paula-${id.slice(0, 8)}@example.com`,
      language: null,
      ...over,
    });
    this.known.set(tenantId, mine);
    return id;
  }

  /** Not a person of `tenantId` any more (crm-people deleted or merged it). */
  forget(tenantId: string, personId: string): void {
    this.known.get(tenantId)?.delete(personId);
  }

  async start(): Promise<void> {
    if (this.sub) return;
    const codec = JSONCodec<{ id: string; data: { tenantId: string; personIds: string[] } }>();
    this.sub = this.nc.subscribe(Subjects.crmPeople.peopleContacts, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data);
        this.asked.push(req.data);
        const mine = this.known.get(req.data.tenantId) ?? new Map();
        const response = {
          people: req.data.personIds.flatMap((id) => mine.get(id) ?? []),
          missingPersonIds: req.data.personIds.filter((id) => !mine.has(id)),
        };
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

export interface InvitationKit {
  t: TicketTestKit;
  people: PeopleStandIn;
}

export async function startInvitationKit(dbName: string): Promise<InvitationKit> {
  const t = await TicketTestKit.start(dbName);
  const people = new PeopleStandIn(t.nc);
  await people.start();
  return { t, people };
}

/** An event of `tenant` known to the service through a snapshot. */
export async function copiedEvent(
  t: TicketTestKit,
  tenant: string,
  over: Record<string, unknown> = {},
): Promise<string> {
  const eventId = randomUUID();
  await t.snapshot(tenant, eventId, over);
  return eventId;
}

/** Polls until `check` answers a value (not undefined), or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 30000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
