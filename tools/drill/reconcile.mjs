// After the workload: waits until the backlogs have drained, then counts every expected effect
// in the databases (as postgres on the drill's own server) and at the receivers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { connect } from 'nats';
import { SERVICES } from './stack.mjs';
import { root, sleep } from './infra.mjs';

/** The services with an outbox (tenant-info has none). */
const OUTBOX_SERVICES = SERVICES.filter((app) => {
  const schema = path.join(root, 'prisma', app, 'schema.prisma');
  return existsSync(schema) && /^model OutboxEvent\b/m.test(readFileSync(schema, 'utf8'));
});

/** What is still in the background: outboxes, JetStream consumers, mails, webhook deliveries. */
export async function backlog(ctx) {
  const left = {};
  for (const app of OUTBOX_SERVICES) {
    const [r] = await ctx.sql(
      app,
      `SELECT count(*)::int AS n FROM "OutboxEvent" WHERE "publishedAt" IS NULL`,
    );
    if (r.n) left[`outbox ${app}`] = r.n;
  }
  const nc = await connect({ servers: ctx.natsUrl, name: 'drill-reconcile', reconnect: false });
  try {
    const jsm = await nc.jetstreamManager();
    for await (const s of jsm.streams.list()) {
      for await (const c of jsm.consumers.list(s.config.name)) {
        const n = c.num_pending + c.num_ack_pending;
        if (n) left[`consumer ${c.name}`] = n;
      }
    }
  } finally {
    await nc.close();
  }
  const [m] = await ctx.sql(
    'bookings-invitations',
    `SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued FROM "Mail"`,
  );
  if (m.queued) left['mails queued'] = m.queued;
  const [w] = await ctx.sql(
    'events',
    `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending FROM "WebhookDelivery"`,
  );
  if (w.pending) left['webhook deliveries pending'] = w.pending;
  const [j] = await ctx.sql(
    'bookings-invitations',
    `SELECT count(*) FILTER (WHERE status NOT IN ('done', 'failed'))::int AS running FROM "ImportJob"`,
  );
  if (j.running) left['import jobs running'] = j.running;
  return left;
}

/** Polls `backlog` until it is empty (answers the seconds it took) or `timeoutMs` passes. */
export async function drain(ctx, timeoutMs, log) {
  const started = Date.now();
  let left = {};
  let lastLog = 0;
  while (Date.now() - started < timeoutMs) {
    try {
      left = await backlog(ctx);
    } catch (err) {
      left = { error: err.message };
    }
    if (!Object.keys(left).length) return { seconds: (Date.now() - started) / 1000, left };
    if (Date.now() - lastLog > 15_000) {
      log(`drill: draining: ${JSON.stringify(left)}`);
      lastLog = Date.now();
    }
    await sleep(500);
  }
  return { seconds: (Date.now() - started) / 1000, left };
}

/**
 * Copies of a mail sent again because its worker was killed between the SMTP server's acceptance
 * and the worker's record of it: no sender can know, after a crash, whether the server took a
 * mail whose acceptance it did not record, and the lease hands it to the next worker. Allowed only
 * when a kill -9 of the mail worker came within MAIL_KILL_WINDOW_MS after the first copy arrived
 * and the copy arrived after that kill; every copy carries the mail's one Message-ID (receivers
 * drop a repeated one). Any other repeat counts as doubled.
 */
const MAIL_KILL_WINDOW_MS = 2000;
function resentAfterWorkerKill(ctx, mailId) {
  const times = [...(ctx.smtp.times.get(mailId) ?? [])].sort((a, b) => a - b);
  if (times.length < 2) return 0;
  const kill = ctx.kills.find(
    (k) =>
      k.target === 'bookings-mail-worker' &&
      k.at >= times[0] &&
      k.at - times[0] <= MAIL_KILL_WINDOW_MS,
  );
  return kill ? times.slice(1).filter((t) => t > kill.at).length : 0;
}
const resentNote = (n) =>
  n
    ? `${n} sent again: worker killed between the SMTP server's acceptance and its record (same Message-ID; allowed)`
    : '';

/** One row of the effects table. */
class Effect {
  constructor(name) {
    Object.assign(this, { name, expected: 0, applied: 0, lost: 0, doubled: 0, note: '' });
    this.examples = [];
  }
  ok(n = 1) {
    this.expected += n;
    this.applied += n;
  }
  miss(what, n = 1) {
    this.expected += n;
    this.lost += n;
    if (this.examples.length < 5) this.examples.push(`lost: ${what}`);
  }
  double(what, n = 1) {
    this.doubled += n;
    if (this.examples.length < 5) this.examples.push(`doubled: ${what}`);
  }
}

const byKey = (rows, key) => {
  const m = new Map();
  for (const r of rows) {
    const k = key(r);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(r);
  }
  return m;
};

export async function reconcile(ctx, state) {
  const ex = state.expected;
  const effects = [];
  const effect = (name) => {
    const e = new Effect(name);
    effects.push(e);
    return e;
  };
  const tenants = state.tenants.map((t) => t.id);
  const marker = `%-${ctx.runId}`;

  // ---- crm-people: people created, deleted, merged
  const people = await ctx.sql(
    'crm-people',
    `SELECT id::text, lastname, "dateCreated" FROM "Person" WHERE "tenantId" = ANY($1) AND lastname LIKE $2`,
    [tenants, marker],
  );
  const peopleById = new Set(people.map((p) => p.id));
  const peopleByMarker = byKey(people, (p) => p.lastname);
  const gone = new Set([...ex.deletedPeople.map((d) => d.id), ...ex.merges.map((m) => m.sourceId)]);
  const created = effect('person created (crm-people)');
  for (const p of ex.people) {
    const rows = peopleByMarker.get(p.marker) ?? [];
    const extra = rows.filter((r) => r.id !== p.id).length;
    if (gone.has(p.id) || rows.some((r) => r.id === p.id)) created.ok();
    else created.miss(`person ${p.id} (${p.marker})`);
    if (extra)
      created.double(
        `${extra} more people ${p.marker} (answered ${p.id}; rows written at ${rows
          .map((r) => ctx.when(r.dateCreated))
          .join(', ')})`,
        extra,
      );
  }
  const deleted = effect('person deleted (crm-people)');
  for (const d of ex.deletedPeople)
    if (peopleById.has(d.id)) deleted.miss(`person ${d.id} still there`);
    else deleted.ok();
  const merged = effect('person merged (source gone, target kept)');
  for (const m of ex.merges)
    // the target may have been merged away or deleted by a later operation
    if (peopleById.has(m.sourceId) || (!peopleById.has(m.targetId) && !gone.has(m.targetId)))
      merged.miss(`merge ${m.sourceId} -> ${m.targetId}`);
    else merged.ok();

  // people.deleted / people.merged reach crm-companies and bookings-invitations (tombstones)
  for (const app of ['crm-companies', 'bookings-invitations']) {
    const rows = await ctx.sql(
      app,
      `SELECT id::text, count(*)::int AS n FROM "Tombstone"
        WHERE "tenantId" = ANY($1) AND kind = 'person' GROUP BY id`,
      [tenants],
    );
    const seen = new Map(rows.map((r) => [r.id, r.n]));
    const e = effect(`person deleted/merged reached ${app}`);
    for (const id of gone) {
      const n = seen.get(id) ?? 0;
      if (!n) e.miss(`no tombstone of person ${id}`);
      else e.ok();
      if (n > 1) e.double(`person ${id} tombstoned ${n} times`, n - 1);
    }
    // a tombstone of a person nobody deleted would be an effect applied from nothing
    for (const id of seen.keys())
      if (!gone.has(id)) e.double(`tombstone of person ${id} that was not deleted`);
  }

  // ---- crm-companies: companies created and deleted
  const companies = await ctx.sql(
    'crm-companies',
    `SELECT id::text, name FROM "Company" WHERE "tenantId" = ANY($1) AND name LIKE $2`,
    [tenants, marker],
  );
  const companyById = new Set(companies.map((c) => c.id));
  const companyByMarker = byKey(companies, (c) => c.name);
  const deletedCompanies = new Set(ex.deletedCompanies.map((d) => d.id));
  const cc = effect('company created (crm-companies)');
  for (const c of ex.companies) {
    const rows = companyByMarker.get(c.marker) ?? [];
    const extra = rows.filter((r) => r.id !== c.id).length;
    if (deletedCompanies.has(c.id) || rows.some((r) => r.id === c.id)) cc.ok();
    else cc.miss(`company ${c.id}`);
    if (extra) cc.double(`${extra} more companies ${c.marker}`, extra);
  }
  const cd = effect('company deleted (crm-companies)');
  for (const d of ex.deletedCompanies)
    if (companyById.has(d.id)) cd.miss(`company ${d.id} still there`);
    else cd.ok();
  const tombs = await ctx.sql(
    'crm-people',
    `SELECT id::text FROM "Tombstone" WHERE "tenantId" = ANY($1) AND kind = 'company'`,
    [tenants],
  );
  const tombSet = new Set(tombs.map((t) => t.id));
  const reached = effect('company deleted reached crm-people');
  for (const d of ex.deletedCompanies)
    if (tombSet.has(d.id)) reached.ok();
    else reached.miss(`no tombstone of company ${d.id} in crm-people`);
  for (const id of tombSet)
    if (!deletedCompanies.has(id)) reached.double(`tombstone of company ${id} not deleted`);

  // ---- cards: a deleted company's links removed exactly; the others' kept
  const cards = await ctx.sql(
    'crm-people',
    `SELECT id::text, "personId"::text, "companyId"::text, business FROM "BusinessCard"
      WHERE "tenantId" = ANY($1) AND business LIKE $2`,
    [tenants, marker],
  );
  const cardById = new Map(cards.map((c) => [c.id, c]));
  const cardsByMarker = byKey(cards, (c) => c.business);
  const deletedPeople = new Set(ex.deletedPeople.map((d) => d.id));
  const mergedAway = new Set(ex.merges.map((m) => m.sourceId));
  const unlinked = effect('company deleted: its people links removed');
  const kept = effect('links of companies not deleted kept');
  const cardCreated = effect('business card created with its link');
  for (const c of ex.cards) {
    const extra = (cardsByMarker.get(c.marker) ?? []).filter((r) => r.id !== c.id).length;
    if (extra) cardCreated.double(`${extra} more cards ${c.marker}`, extra);
    const row = cardById.get(c.id);
    if (!row) {
      // a deleted person's cards go with them; a merged-away person's move or go
      if (deletedPeople.has(c.personId) || mergedAway.has(c.personId)) cardCreated.ok();
      else cardCreated.miss(`card ${c.id} of person ${c.personId}`);
      continue;
    }
    cardCreated.ok();
    if (deletedCompanies.has(c.companyId)) {
      if (row.companyId === null) unlinked.ok();
      else if (row.companyId === c.companyId)
        unlinked.miss(`card ${c.id} still links ${c.companyId}`);
      else unlinked.miss(`card ${c.id} links ${row.companyId}`);
    } else if (row.companyId === c.companyId) kept.ok();
    else kept.miss(`card ${c.id} lost its link to ${c.companyId} (now ${row.companyId})`);
  }
  const refusedLinks = ex.refused.filter((x) => x.kind === 'addCard');
  const refusedUnexplained = refusedLinks.filter((x) => !deletedCompanies.has(x.companyId));
  if (refusedUnexplained.length)
    for (const x of refusedUnexplained)
      cardCreated.miss(
        `card ${x.marker} refused (${x.status}) though ${x.companyId} was not deleted`,
      );
  cardCreated.note = `${refusedLinks.length} refused: their company deleted meanwhile`;

  // ---- bookings, tickets, seats, invoice numbers
  const bookings = await ctx.sql(
    'bookings-invitations',
    `SELECT b.id::text, b."tenantId", b."bookerLastname" AS marker, b.status, b."invoiceNumber",
            (SELECT count(*)::int FROM "EventTicket" t WHERE t."bookingId" = b.id) AS tickets,
            (SELECT count(*)::int FROM "EventTicket" t
              WHERE t."bookingId" = b.id AND t.status = 'valid') AS valid
       FROM "Booking" b WHERE b."tenantId" = ANY($1)`,
    [tenants],
  );
  const bookingById = new Map(bookings.map((b) => [b.id, b]));
  const bookingsByMarker = byKey(bookings, (b) => b.marker);
  const cancelledIds = new Set(ex.cancelled.map((c) => c.id));
  const booked = effect('booking written (with its tickets)');
  for (const b of ex.bookings) {
    const rows = bookingsByMarker.get(b.marker) ?? [];
    const row = bookingById.get(b.id);
    if (row && row.tickets === b.quantity) booked.ok();
    else
      booked.miss(`booking ${b.id} ${row ? `${row.tickets} of ${b.quantity} tickets` : 'missing'}`);
    const extra = rows.filter((r) => r.id !== b.id).length;
    if (extra) booked.double(`${extra} more bookings ${b.marker}`, extra);
  }
  const answeredIds = new Set(ex.bookings.map((b) => b.id));
  for (const row of bookings)
    if (!answeredIds.has(row.id) && !bookingsByMarker.has(row.marker))
      booked.double(`booking ${row.id} no answer named`);
  const cancels = effect('booking cancelled (status, tickets)');
  for (const c of ex.cancelled) {
    const row = bookingById.get(c.id);
    if (row?.status === 'cancelled' && row.valid === 0) cancels.ok();
    else cancels.miss(`booking ${c.id}: ${row?.status}, ${row?.valid} valid tickets`);
  }
  for (const row of bookings)
    if (row.status === 'cancelled' && !cancelledIds.has(row.id) && answeredIds.has(row.id))
      cancels.double(`booking ${row.id} cancelled though never asked`);

  const seats = effect('seats sold = tickets issued = bookings');
  for (const t of state.tenants) {
    const [r] = await ctx.sql(
      'bookings-invitations',
      `SELECT (SELECT sold FROM "TicketType" WHERE id = $1) AS sold,
              (SELECT count(*)::int FROM "EventTicket" WHERE "ticketTypeId" = $1 AND status = 'valid') AS valid,
              (SELECT sold FROM "EventCopy" WHERE "eventId" = $2) AS "eventSold"`,
      [t.typeId, t.eventId],
    );
    const want = ex.bookings
      .filter((b) => b.tenantId === t.id && !cancelledIds.has(b.id))
      .reduce((n, b) => n + b.quantity, 0);
    for (const [what, got] of [
      ['ticket type sold', r.sold],
      ['valid tickets', r.valid],
      ['event sold', r.eventSold],
    ]) {
      if (got === want) seats.ok(want);
      else if (got < want) {
        seats.ok(got);
        seats.miss(`${t.id}: ${what} ${got} of ${want}`, want - got);
      } else {
        seats.ok(want);
        seats.double(`${t.id}: ${what} ${got} for ${want}`, got - want);
      }
    }
  }

  const invoices = effect('invoice numbers gap-free, unique (per tenant, year)');
  for (const t of state.tenants) {
    const rows = bookings.filter((b) => b.tenantId === t.id);
    const byYear = byKey(
      rows.filter((b) => b.invoiceNumber),
      (b) => b.invoiceNumber.split('-')[0],
    );
    const without = rows.filter((b) => !b.invoiceNumber).length;
    if (without) invoices.miss(`${t.id}: ${without} bookings without a number`, without);
    for (const [year, list] of byYear) {
      const nums = list.map((b) => Number(b.invoiceNumber.split('-')[1])).sort((a, b) => a - b);
      const distinct = new Set(nums);
      const max = nums.at(-1);
      invoices.expected += max;
      invoices.applied += distinct.size;
      const gaps = max - distinct.size;
      if (gaps) {
        invoices.lost += gaps;
        invoices.examples.push(`lost: ${t.id} ${year}: ${gaps} numbers missing of 1..${max}`);
      }
      if (nums.length !== distinct.size)
        invoices.double(
          `${t.id} ${year}: ${nums.length - distinct.size} repeated`,
          nums.length - distinct.size,
        );
      const [counter] = await ctx.sql(
        'bookings-invitations',
        `SELECT coalesce(sum(last), 0)::int AS last FROM "InvoiceCounter" WHERE "tenantId" = $1`,
        [t.id],
      );
      if (counter.last !== max)
        invoices.examples.push(`${t.id}: counter at ${counter.last}, highest number ${max}`);
    }
  }

  const checkIns = await ctx.sql(
    'bookings-invitations',
    `SELECT "ticketId"::text, count(*)::int AS n FROM "CheckIn" WHERE "tenantId" = ANY($1) GROUP BY 1`,
    [tenants],
  );
  const checkedIn = new Map(checkIns.map((c) => [c.ticketId, c.n]));
  const ci = effect('check-in recorded once');
  const wanted = new Set(ex.checkIns.map((c) => c.ticketId));
  for (const c of ex.checkIns) {
    const n = checkedIn.get(c.ticketId) ?? 0;
    if (n) ci.ok();
    else ci.miss(`ticket ${c.ticketId} not checked in`);
    if (n > 1) ci.double(`ticket ${c.ticketId} checked in ${n} times`, n - 1);
  }
  for (const id of checkedIn.keys())
    if (!wanted.has(id)) ci.double(`ticket ${id} checked in unasked`);

  // ---- invitations imported
  const imp = effect('invitation imported once per row');
  for (const i of ex.imports) {
    const rows = await ctx.sql(
      'bookings-invitations',
      `SELECT "emailKey" AS email, count(*)::int AS n FROM "Invitation"
        WHERE "tenantId" = $1 AND "eventId" = $2 AND "emailKey" = ANY($3) GROUP BY 1`,
      [i.tenantId, i.eventId, i.emails],
    );
    const got = new Map(rows.map((r) => [r.email, r.n]));
    for (const e of i.emails) {
      const n = got.get(e) ?? 0;
      if (n) imp.ok();
      else imp.miss(`${e} not invited (job ${i.jobId}: ${JSON.stringify(i.job)})`);
      if (n > 1) imp.double(`${e} invited ${n} times`, n - 1);
    }
  }

  // ---- mails: each booking's confirmation once at the SMTP server; every other mail at most once
  const mails = await ctx.sql(
    'bookings-invitations',
    `SELECT id::text, kind, "bookingId"::text, status FROM "Mail" WHERE "tenantId" = ANY($1)`,
    [tenants],
  );
  const confirmations = byKey(
    mails.filter((m) => m.kind === 'booking-confirmation'),
    (m) => m.bookingId,
  );
  const conf = effect('booking confirmation mail sent once');
  let resentMails = 0;
  for (const b of ex.bookings) {
    const list = confirmations.get(b.id) ?? [];
    if (list.length > 1)
      conf.double(`booking ${b.id}: ${list.length} confirmation mails queued`, list.length - 1);
    const received = list.reduce((n, m) => n + (ctx.smtp.byMailId.get(m.id) ?? 0), 0);
    if (!received)
      conf.miss(
        `booking ${b.id}: ${list.length ? `mail ${list[0].id} ${list[0].status}` : 'no mail queued'}`,
      );
    else conf.ok();
    const resent = list.reduce((n, m) => n + resentAfterWorkerKill(ctx, m.id), 0);
    resentMails += resent;
    if (received - resent > 1)
      conf.double(
        `booking ${b.id}: confirmation received ${received} times (at ${list
          .flatMap((m) => ctx.smtp.times.get(m.id) ?? [])
          .map((t) => ctx.when(t))
          .join(', ')})`,
        received - resent - 1,
      );
  }
  conf.note = resentNote(resentMails);
  const others = effect('other mails (cancellations, invitations...) at most once');
  let otherResent = 0;
  for (const m of mails.filter((x) => x.kind !== 'booking-confirmation')) {
    const n = ctx.smtp.byMailId.get(m.id) ?? 0;
    if (n) others.ok();
    else others.miss(`${m.kind} mail ${m.id} ${m.status}`);
    const resent = resentAfterWorkerKill(ctx, m.id);
    otherResent += resent;
    if (n - resent > 1)
      others.double(
        `${m.kind} mail ${m.id} received ${n} times (at ${(ctx.smtp.times.get(m.id) ?? [])
          .map((t) => ctx.when(t))
          .join(', ')})`,
        n - resent - 1,
      );
  }
  others.note = resentNote(otherResent);
  const mailIds = new Set(mails.map((m) => m.id));
  let strays = 0;
  for (const id of ctx.smtp.byMailId.keys()) if (!mailIds.has(id)) strays++;
  if (strays) others.double(`${strays} mails received that no Mail row names`, strays);

  // ---- webhooks: each event at least once, under one webhook-id
  const hooks = new Map(); // `${type} ${id}` -> { ids: Set, deliveries }
  for (const [wid, h] of ctx.receiver.byId) {
    const d = h.data ?? {};
    const subjects =
      d.personIds ??
      d.companyIds ??
      (h.type === 'ticket.checked_in' ? [d.ticketId] : [d.bookingId]);
    for (const s of subjects ?? []) {
      const k = `${h.type} ${s}`;
      if (!hooks.has(k)) hooks.set(k, { ids: new Set(), deliveries: 0 });
      hooks.get(k).ids.add(wid);
      hooks.get(k).deliveries += h.count;
    }
  }
  const expectedHooks = [
    ...ex.people.map((p) => ['person.created', p.id]),
    ...ex.deletedPeople.map((p) => ['person.deleted', p.id]),
    ...ex.deletedCompanies.map((c) => ['company.deleted', c.id]),
    ...ex.bookings.map((b) => ['booking.created', b.id]),
    ...ex.cancelled.map((b) => ['booking.cancelled', b.id]),
    ...ex.checkIns.map((c) => ['ticket.checked_in', c.ticketId]),
  ];
  const wh = effect('webhook delivered (at least once, one webhook-id)');
  let repeated = 0;
  for (const [type, id] of expectedHooks) {
    const h = hooks.get(`${type} ${id}`);
    if (!h) {
      wh.miss(`${type} ${id}`);
      continue;
    }
    wh.ok();
    if (h.ids.size > 1) wh.double(`${type} ${id} under ${h.ids.size} webhook-ids`, h.ids.size - 1);
    repeated += h.deliveries - h.ids.size;
  }
  const expectedKeys = new Set(expectedHooks.map(([t, i]) => `${t} ${i}`));
  let unasked = 0;
  for (const k of hooks.keys()) if (!expectedKeys.has(k)) unasked++;
  wh.note = `${repeated} repeated deliveries (same webhook-id; allowed)${unasked ? `, ${unasked} events no operation explains` : ''}`;

  // ---- nothing left in an outbox
  const ob = effect('outbox events published');
  for (const app of OUTBOX_SERVICES) {
    const [r] = await ctx.sql(
      app,
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE "publishedAt" IS NULL)::int AS left FROM "OutboxEvent"`,
    );
    ob.expected += r.n;
    ob.applied += r.n - r.left;
    ob.lost += r.left;
    if (r.left) ob.examples.push(`lost: ${app}: ${r.left} unpublished`);
  }
  return { effects, unasked };
}
