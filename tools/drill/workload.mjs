// The drill's workload: a careful integrator's calls through the gateway. Every call is tried
// again on a connection error, a 5xx, a 429 or a 409 with Retry-After (an Idempotency-Key still
// in flight), with the same Idempotency-Key on a POST, until it gets a final answer. Each
// operation records what it expects to have happened (reconcile.mjs checks it).
import { randomUUID } from 'node:crypto';
import { rng } from '../bench/measure.mjs';
import { sleep, until } from './infra.mjs';

const { FormData, Blob } = globalThis;

/** Calls that failed (network, 5xx, 429, 409 in flight) with their time: the kill windows count them. */
export const failures = [];
/** Final answers by status, and tries by status. */
export const answers = {};

const OP_TIMEOUT_MS = Number(process.env.DRILL_OP_TIMEOUT_S ?? 300) * 1000;

/**
 * One call until it has a final answer. `idempotent`: POST with an Idempotency-Key (the same on
 * every try). Answers { status, body, headers, retried } (retried: an earlier try failed, so a
 * "not found"/"conflict" may be the effect of that try).
 */
export async function call(ctx, t, method, p, body, { pub = false, form } = {}) {
  const key = method === 'POST' ? randomUUID() : undefined;
  const headers = {
    'x-service-tenantid': t.id,
    'x-integration-name': 'drill',
    'x-integration-provider': 'drill',
    ...(pub ? {} : { authorization: `Bearer ${t.key}` }),
    ...(form ? {} : { 'content-type': 'application/json' }),
    ...(key ? { 'idempotency-key': key } : {}),
  };
  const end = Date.now() + OP_TIMEOUT_MS;
  let retried = false;
  let wait = 200;
  for (let attempt = 1; ; attempt++) {
    let status = 'network';
    let json = null;
    let res;
    try {
      res = await fetch(`${ctx.gatewayUrl}/v1/crm${p}`, {
        method,
        headers,
        body: form ? form() : body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      });
      status = res.status;
      const text = await res.text();
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
    } catch {
      status = 'network';
    }
    const inFlight = status === 409 && res?.headers.get('retry-after');
    if (status === 'network' || status >= 500 || status === 429 || inFlight) {
      failures.push({ at: Date.now(), status: String(status), op: `${method} ${p}` });
      retried = true;
      if (Date.now() > end)
        throw new Error(`${method} ${p}: no final answer after ${attempt} tries (last ${status})`);
      const after = Number(res?.headers.get('retry-after'));
      await sleep(after > 0 ? Math.min(after * 1000, 5000) : wait);
      wait = Math.min(wait * 2, 2000);
      continue;
    }
    answers[status] = (answers[status] ?? 0) + 1;
    return {
      status,
      body: json,
      data: json?.data,
      retried,
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  }
}

const inDays = (days, hour) => {
  const d = new Date(Date.now() + days * 86400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
};

export const WEBHOOK_TYPES = [
  'person.created',
  'person.deleted',
  'company.deleted',
  'booking.created',
  'booking.cancelled',
  'ticket.checked_in',
];

const must = (r, status, what) => {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.data;
};

/**
 * A tenant as an organiser sets it up: a webhook endpoint for the drill's event types at the
 * receiver, a website, an event today-ish with one paid ticket type (an invoice number per
 * booking), published; waits until bookings-invitations' copy of the event is published.
 */
export async function setUpTenant(ctx, t) {
  must(
    await call(ctx, t, 'POST', '/integrations/webhooks', {
      url: ctx.receiver.url,
      eventTypes: WEBHOOK_TYPES,
    }),
    201,
    'webhook endpoint',
  );
  const site = must(
    await call(ctx, t, 'POST', '/websites', {
      name: 'Drill portal',
      url: `https://${t.id}.drill.example/`,
      language: 'en',
    }),
    201,
    'website',
  );
  const event = must(
    await call(ctx, t, 'POST', '/events', {
      title: 'Drill night',
      startsAt: inDays(20, 18),
      endsAt: inDays(20, 23),
      timeZone: 'Europe/Berlin',
      taxRateId: 'de-standard',
      venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
      status: 'scheduled',
    }),
    201,
    'event',
  );
  await until(
    `the copy of event ${event.id}`,
    async () =>
      (
        await ctx.sql('bookings-invitations', `SELECT 1 FROM "EventCopy" WHERE "eventId" = $1`, [
          event.id,
        ])
      ).length > 0,
  );
  const type = must(
    await call(ctx, t, 'POST', '/tickets', {
      eventId: event.id,
      name: 'Standard',
      price: '49',
      currency: 'EUR',
      quota: 100000,
    }),
    201,
    'ticket type',
  );
  must(
    await call(ctx, t, 'PUT', `/events/${event.id}/publication`, {
      published: true,
      websiteIds: [site.id],
    }),
    200,
    'publish',
  );
  await until(
    `the published copy of ${event.id}`,
    async () =>
      (
        await ctx.sql(
          'bookings-invitations',
          `SELECT published FROM "EventCopy" WHERE "eventId" = $1`,
          [event.id],
        )
      )[0]?.published,
  );
  return { ...t, eventId: event.id, typeId: type.id };
}

const KINDS = [
  ['createPerson', 20],
  ['createCompany', 8],
  ['addCard', 12],
  ['deleteCompany', 6],
  ['mergePeople', 5],
  ['deletePerson', 7],
  ['book', 22],
  ['cancelBooking', 6],
  ['checkIn', 12],
];
const TOTAL_WEIGHT = KINDS.reduce((n, [, w]) => n + w, 0);

/**
 * The state of the run and what it expects: per tenant the people, companies, cards, bookings
 * and tickets that exist by the answers, and a log of every effect (ctx.expect).
 */
export function newState(tenants) {
  return {
    tenants: tenants.map((t) => ({
      ...t,
      people: [], // live person ids (not claimed by a running op)
      companies: [],
      cancellable: [], // bookings kept for cancellations
      tickets: [], // tickets kept for check-ins
    })),
    expected: {
      people: [], // { tenantId, id, marker }
      companies: [],
      cards: [], // { tenantId, id, personId, companyId }
      deletedCompanies: [], // { tenantId, id }
      deletedPeople: [], // { tenantId, id }
      merges: [], // { tenantId, targetId, sourceId }
      bookings: [], // { tenantId, id, marker, typeId, quantity, ticketIds }
      cancelled: [], // { tenantId, id }
      checkIns: [], // { tenantId, ticketId }
      imports: [], // { tenantId, eventId, emails, jobId, created }
      refused: [], // operations refused by a 4xx that a concurrent op explains
    },
    unexpected: [], // final answers that were not expected (a 4xx out of nowhere)
    done: 0,
  };
}

const take = (list, r) => (list.length ? list.splice(Math.floor(r() * list.length), 1)[0] : null);

/** Runs operation number `n` of kind `kind` for tenant `t`. */
async function operation(ctx, state, t, kind, n, r) {
  const ex = state.expected;
  const marker = `D${n}-${ctx.runId}`;
  const unexpected = (what, res) =>
    state.unexpected.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  switch (kind) {
    case 'createPerson': {
      const res = await call(ctx, t, 'POST', '/people', { firstname: 'Drill', lastname: marker });
      if (res.status !== 201) return unexpected(`create person ${marker}`, res);
      ex.people.push({ tenantId: t.id, id: res.data.id, marker });
      t.people.push(res.data.id);
      return;
    }
    case 'createCompany': {
      const res = await call(ctx, t, 'POST', '/companies', { name: marker });
      if (res.status !== 201) return unexpected(`create company ${marker}`, res);
      ex.companies.push({ tenantId: t.id, id: res.data.id, marker });
      t.companies.push(res.data.id);
      return;
    }
    case 'addCard': {
      if (!t.people.length || !t.companies.length)
        return operation(ctx, state, t, 'createPerson', n, r);
      // the person is claimed for the call (no merge or delete of it meanwhile); the company
      // is not: a delete of it may race the card, which the tombstones decide
      const personId = take(t.people, r);
      const companyId = t.companies[Math.floor(r() * t.companies.length)];
      try {
        const res = await call(ctx, t, 'POST', `/people/${personId}/business-cards`, {
          business: marker,
          companyId,
        });
        if (res.status === 201) {
          ex.cards.push({ tenantId: t.id, id: res.data.id, personId, companyId, marker });
        } else if (res.status === 404 || res.status === 400) {
          // the company deleted meanwhile (its tombstone refuses the link)
          ex.refused.push({ kind, tenantId: t.id, companyId, status: res.status, marker });
        } else unexpected(`card ${marker}`, res);
      } finally {
        t.people.push(personId);
      }
      return;
    }
    case 'deleteCompany': {
      if (t.companies.length < 3) return operation(ctx, state, t, 'createCompany', n, r);
      const id = take(t.companies, r);
      const res = await call(ctx, t, 'DELETE', `/companies/${id}`);
      if (res.status < 300 || (res.status === 404 && res.retried))
        ex.deletedCompanies.push({ tenantId: t.id, id, ambiguous: res.status === 404 });
      else unexpected(`delete company ${id}`, res);
      return;
    }
    case 'mergePeople': {
      if (t.people.length < 4) return operation(ctx, state, t, 'createPerson', n, r);
      const targetId = take(t.people, r);
      const sourceId = take(t.people, r);
      const res = await call(ctx, t, 'POST', '/people/merge', { targetId, sourceIds: [sourceId] });
      if (res.status === 200 || (res.status === 404 && res.retried))
        ex.merges.push({ tenantId: t.id, targetId, sourceId, ambiguous: res.status === 404 });
      else {
        unexpected(`merge ${sourceId} into ${targetId}`, res);
        t.people.push(sourceId);
      }
      t.people.push(targetId);
      return;
    }
    case 'deletePerson': {
      if (t.people.length < 4) return operation(ctx, state, t, 'createPerson', n, r);
      const id = take(t.people, r);
      const res = await call(ctx, t, 'DELETE', `/people/${id}`);
      if (res.status < 300 || (res.status === 404 && res.retried))
        ex.deletedPeople.push({ tenantId: t.id, id, ambiguous: res.status === 404 });
      else unexpected(`delete person ${id}`, res);
      return;
    }
    case 'book': {
      const quantity = 1 + Math.floor(r() * 3);
      const res = await call(
        ctx,
        t,
        'POST',
        '/bookings/public',
        {
          eventId: t.eventId,
          booker: {
            firstname: 'Drill',
            lastname: marker,
            email: `${marker.toLowerCase()}@drill.example`,
          },
          tickets: Array.from({ length: quantity }, (_, i) => ({
            ticketTypeId: t.typeId,
            participant: { firstname: `Guest${i + 1}`, lastname: marker },
          })),
        },
        { pub: true },
      );
      if (res.status !== 201) return unexpected(`booking ${marker}`, res);
      const ticketIds = (res.data.tickets ?? []).map((x) => x.id);
      const booking = {
        tenantId: t.id,
        id: res.data.id,
        marker,
        typeId: t.typeId,
        quantity,
        ticketIds,
      };
      ex.bookings.push(booking);
      // one booking in four is kept for a cancellation, the others' tickets for check-ins
      if (r() < 0.25) t.cancellable.push(booking);
      else t.tickets.push(...ticketIds);
      return;
    }
    case 'cancelBooking': {
      const booking = take(t.cancellable, r);
      if (!booking) return operation(ctx, state, t, 'book', n, r);
      const res = await call(ctx, t, 'POST', `/bookings/${booking.id}/cancel`, { reason: 'drill' });
      if (res.status === 200 || (res.status === 409 && res.retried))
        ex.cancelled.push({ tenantId: t.id, id: booking.id, ambiguous: res.status === 409 });
      else unexpected(`cancel ${booking.id}`, res);
      return;
    }
    case 'checkIn': {
      const ticketId = take(t.tickets, r);
      if (!ticketId) return operation(ctx, state, t, 'book', n, r);
      const read = await call(ctx, t, 'GET', `/event-tickets/${ticketId}`);
      if (read.status !== 200) return unexpected(`ticket ${ticketId}`, read);
      const res = await call(ctx, t, 'POST', '/event-tickets/check-in', {
        code: read.data.code,
        nonce: marker,
        location: 'Drill gate',
        eventId: t.eventId,
      });
      if (res.status === 200) ex.checkIns.push({ tenantId: t.id, ticketId });
      else unexpected(`check-in ${ticketId}`, res);
      return;
    }
    case 'import': {
      const emails = Array.from(
        { length: 25 },
        (_, i) => `imp${i}-${marker.toLowerCase()}@drill.example`,
      );
      const csv = `email;firstname\n${emails.map((e, i) => `${e};Guest${i}`).join('\n')}\n`;
      const form = () => {
        const f = new FormData();
        f.append('eventId', t.eventId);
        f.append('file', new Blob([csv], { type: 'text/csv' }), 'guests.csv');
        return f;
      };
      const res = await call(ctx, t, 'POST', '/invitations/import', undefined, { form });
      if (res.status !== 202) return unexpected(`import ${marker}`, res);
      const jobId = res.data.jobId;
      const job = await until(
        `import job ${jobId}`,
        async () => {
          const j = await call(ctx, t, 'GET', `/invitations/import/${jobId}`);
          return ['done', 'failed'].includes(j.data?.status) ? j.data : null;
        },
        600_000,
        500,
      );
      ex.imports.push({ tenantId: t.id, eventId: t.eventId, emails, jobId, job });
      return;
    }
    default:
      throw new Error(`unknown operation ${kind}`);
  }
}

/**
 * `operations` operations by `clients` concurrent clients over the tenants; the kinds drawn
 * from a seeded generator (the targets picked from what exists when the operation runs); one
 * invitation import per tenant in the middle of the run. `onProgress(done)` after each.
 */
export async function runWorkload(ctx, state, { operations, clients, seed, beforeOp, onProgress }) {
  const r = rng(seed);
  const plan = Array.from({ length: operations }, (_, i) => {
    let x = r() * TOTAL_WEIGHT;
    const kind = KINDS.find(([, w]) => (x -= w) < 0)?.[0] ?? 'createPerson';
    return { n: i + 1, kind, tenant: state.tenants[i % state.tenants.length] };
  });
  // one import per tenant, about half-way
  for (const [i, t] of state.tenants.entries()) {
    const at = Math.floor(operations / 2) + i;
    if (plan[at]) plan[at] = { n: at + 1, kind: 'import', tenant: t };
  }
  let next = 0;
  const errors = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const cr = rng(seed + c + 1);
      while (next < plan.length) {
        const op = plan[next++];
        await beforeOp?.(op.n);
        try {
          await operation(ctx, state, op.tenant, op.kind, op.n, cr);
        } catch (err) {
          errors.push(`operation ${op.n} (${op.kind}): ${err.message}`);
        }
        state.done++;
        onProgress?.(state.done);
      }
    }),
  );
  return { errors, plan };
}
