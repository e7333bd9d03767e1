import { connect, JSONCodec, NatsConnection, Subscription } from 'nats';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { InvoiceSenderReply, Subjects } from '@crm/messaging';
import { asTenant } from '@crm/request-context';
import {
  freePort,
  natsServer,
  NatsProcess,
  runSql,
  ServiceTestKit,
  startSmtpServer,
  type TestSmtpServer,
} from '@crm/testing';
import { PrismaService } from '../../database/prisma.service';
import { FAST_MAIL_ENV } from '../../mails/test/mail-test-kit';
import { RunningService, startBookingsInvitations } from '../../test/service-harness';

/** Answers events.event-settings.invoice-sender as the events service would, per tenant. */
export class InvoiceSenderStandIn {
  readonly senders = new Map<string, InvoiceSenderReply>();
  asked = 0;
  private sub: Subscription | null = null;

  constructor(private readonly nc: NatsConnection) {}

  async start(): Promise<void> {
    if (this.sub) return;
    const codec = JSONCodec<{ id: string; data: { tenantId: string } }>();
    this.sub = this.nc.subscribe(Subjects.events.invoiceSender, {
      callback: (_err, msg) => {
        const req = codec.decode(msg.data);
        this.asked++;
        const response = this.senders.get(req.data.tenantId) ?? {
          sender: null,
          currency: 'EUR',
          timeZone: 'Europe/Berlin',
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

export interface TicketFixture {
  ticketTypeName?: string;
  firstname?: string;
  lastname?: string;
  gross: string;
  /** Percent, e.g. "19". */
  rate: string;
  status?: string;
}

export interface BookingFixture {
  eventId?: string;
  eventTitle?: string;
  invoiceNumber?: string | null;
  language?: string;
  bookerFirstname?: string;
  bookerLastname?: string;
  bookerEmail?: string;
  tickets?: TicketFixture[];
  cancelled?: { fee: string; refund: string };
  /** The cancellation tiers frozen onto the booking (BK7/BK8 apply them). */
  cancellationTiers?: { daysBeforeStart: number; feePercent: number; feeFixed: string }[];
  /** The event's zone (default Europe/Berlin). */
  timeZone?: string;
}

/**
 * The invoices' integration tests: the real service on its own nats-server with a stand-in for
 * the events service's invoice sender responder, its own SMTP server, and bookings written
 * straight into the database (the public booking flow is another part's).
 */
export class InvoiceTestKit extends ServiceTestKit {
  private constructor(
    svc: RunningService,
    private readonly nats: NatsProcess,
    private readonly store: string,
    readonly nc: NatsConnection,
    readonly senders: InvoiceSenderStandIn,
    readonly smtp: TestSmtpServer,
  ) {
    super(svc);
  }

  static async start(dbName: string): Promise<InvoiceTestKit> {
    const store = await mkdtemp(path.join(tmpdir(), 'bk-nats-'));
    const nats = await natsServer(await freePort(), store);
    const smtp = await startSmtpServer();
    const svc = await startBookingsInvitations(dbName, {
      NATS_URL: nats.url,
      SMTP_URL: smtp.url,
      NATS_REQUEST_TIMEOUT_MS: '1000',
      ...FAST_MAIL_ENV,
    });
    const nc = await connect({ servers: nats.url, name: 'events-stand-in' });
    const senders = new InvoiceSenderStandIn(nc);
    await senders.start();
    return new InvoiceTestKit(svc, nats, store, nc, senders, smtp);
  }

  override async close(): Promise<void> {
    await this.nc.close();
    await super.close();
    await this.smtp.stop();
    await this.nats.stop();
    await rm(this.store, { recursive: true, force: true });
  }

  sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.svc.databaseUrl, text, params);
  }

  /** A booking of `tenant` with its tickets (prices split at their rate) and the event's copy. */
  async booking(tenant = this.A, f: BookingFixture = {}): Promise<{ id: string; eventId: string }> {
    const prisma = this.svc.app.get(PrismaService);
    const eventId = f.eventId ?? randomUUID();
    const id = randomUUID();
    const tickets = (f.tickets ?? [{ gross: '119.00', rate: '19' }]).map((t) => {
      const gross = new Decimal(t.gross);
      const net = gross.div(new Decimal(t.rate).div(100).plus(1)).toDecimalPlaces(2);
      return { ...t, gross, net, tax: gross.minus(net) };
    });
    const sum = (k: 'gross' | 'net' | 'tax') =>
      tickets.reduce((a, t) => a.plus(t[k]), new Decimal(0)).toFixed(2);
    // arranged through the app as the tenant (its rows only)
    await asTenant(tenant, async () =>
      prisma.$transaction(async (tx) => {
        await tx.eventCopy.upsert({
          where: { tenantId_eventId: { tenantId: tenant, eventId } },
          update: {},
          create: {
            tenantId: tenant,
            eventId,
            sequence: 1,
            title: f.eventTitle ?? 'Summit 2030',
            startsAt: new Date('2030-06-01T08:00:00Z'),
            timeZone: f.timeZone ?? 'Europe/Berlin',
            published: true,
            status: 'planned',
          },
        });
        await tx.booking.create({
          data: {
            id,
            tenantId: tenant,
            eventId,
            status: f.cancelled ? 'cancelled' : 'confirmed',
            paymentStatus: 'open',
            bookerFirstname: f.bookerFirstname ?? 'Ada',
            bookerLastname: f.bookerLastname ?? 'Lovelace',
            bookerEmail: f.bookerEmail ?? `ada-${id.slice(0, 8)}@example.test`,
            language: f.language ?? 'en',
            currency: 'EUR',
            totalNet: sum('net'),
            totalTax: sum('tax'),
            totalGross: sum('gross'),
            cancellationTiers: f.cancellationTiers ?? undefined,
            cancelledAt: f.cancelled ? new Date() : null,
            cancellationFee: f.cancelled?.fee ?? null,
            refundAmount: f.cancelled?.refund ?? null,
            invoiceNumber: f.invoiceNumber === undefined ? `T-${id.slice(0, 8)}` : f.invoiceNumber,
            invoiceDate: f.invoiceNumber === null ? null : new Date(),
            confirmationToken: randomBytes(16).toString('base64url'),
            createdBy: 'test-suite',
            modifiedBy: 'test-suite',
          },
        });
        await tx.eventTicket.createMany({
          data: tickets.map((t, i) => ({
            id: randomUUID(),
            tenantId: tenant,
            eventId,
            bookingId: id,
            ticketTypeId: randomUUID(),
            ticketTypeName: t.ticketTypeName ?? 'Standard',
            priceGross: t.gross.toFixed(2),
            priceNet: t.net.toFixed(2),
            priceTax: t.tax.toFixed(2),
            taxRatePercent: t.rate,
            status: t.status ?? (f.cancelled ? 'cancelled' : 'valid'),
            participantFirstname: t.firstname ?? 'Guest',
            participantLastname: t.lastname ?? `No ${i + 1}`,
          })),
        });
      }),
    );
    return { id, eventId };
  }

  history(bookingId: string) {
    return this.sql<{ action: string; actor: string; data: Record<string, unknown> }>(
      `SELECT action, actor, data FROM "BookingHistory" WHERE "bookingId" = $1::uuid ORDER BY at`,
      [bookingId],
    );
  }
}
