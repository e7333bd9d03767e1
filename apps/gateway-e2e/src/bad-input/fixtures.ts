import { tenantHeaders, uploadHeaders } from '@crm/testing';
import sharp from 'sharp';
import { Answer, Client, eventually, TestTenant } from '../client';
import type { IdPool } from './requests';

// System entries every tenant has (seeded lists): a subsidiary relation type, a manager role.
const SUBSIDIARY = '00000000-0000-4000-b000-000000000601';
const ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000401';

function created(res: Answer, what: string): string {
  if (res.status !== 201 && res.status !== 200) {
    throw new Error(`fixture ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const data = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
  return data.id;
}

/**
 * One of everything a path parameter can name, for tenant `t`: the probe sends the probing
 * tenant's ids (to reach the handlers) and the other tenant's (which must stay out of reach).
 */
export async function createFixtures(
  client: Client,
  t: TestTenant,
  webhookUrl: string,
): Promise<IdPool> {
  const rest = (method: string, p: string, body?: unknown) => client.rest(t, method, p, body);
  const upload = (p: string, image?: Buffer) => {
    const form = new FormData();
    if (image) form.append('file', new Blob([image], { type: 'image/png' }), 'probe.png');
    else
      form.append(
        'file',
        new Blob([Buffer.from('probe fixture')], { type: 'text/plain' }),
        'f.txt',
      );
    return client.raw(`/v1/crm${p}`, {
      method: 'POST',
      headers: { ...uploadHeaders(t.id), Authorization: `Bearer ${t.key}` },
      body: form,
    });
  };
  const person = created(
    await rest('POST', '/people', { firstname: 'Ada', lastname: 'Probe' }),
    'person',
  );
  const other = created(
    await rest('POST', '/people', { firstname: 'Bob', lastname: 'Probe' }),
    'person 2',
  );
  const company = created(await rest('POST', '/companies', { name: 'Probe GmbH' }), 'company');
  const parent = created(
    await rest('POST', '/companies', { name: 'Probe Holding AG' }),
    'company 2',
  );
  const card = created(await rest('POST', `/people/${person}/business-cards`, {}), 'card');
  const ids: IdPool = {
    person: [person, other],
    company: [company, parent],
    card: [card],
    cardAddress: [
      created(
        await rest('POST', `/people/${person}/business-cards/${card}/addresses`, {
          city: 'Hamburg',
        }),
        'card address',
      ),
    ],
    personRelation: [
      created(
        await rest('POST', `/people/${person}/relations`, {
          personId: other,
          type: { typeIdentifier: 'friend' },
        }),
        'person relation',
      ),
    ],
    touchpoint: [
      created(
        await rest('POST', '/touchpoints', {
          type: 'call',
          subject: 'Probe',
          start: '2026-01-10T09:00:00Z',
          personIds: [person],
        }),
        'touchpoint',
      ),
    ],
    companyAddress: [
      created(
        await rest('POST', `/companies/${company}/addresses`, {
          street: 'Hauptstraße 1',
          zip: '10115',
          city: 'Berlin',
          countryCode: 'DE',
        }),
        'company address',
      ),
    ],
    phone: [
      created(
        await rest('POST', `/companies/${company}/phones`, { number: '+49 30 1234567' }),
        'phone',
      ),
    ],
    email: [
      created(
        await rest('POST', `/companies/${company}/emails`, { email: 'info@probe.example' }),
        'email',
      ),
    ],
    bankAccount: [
      created(
        await rest('POST', `/companies/${company}/bank-accounts`, {
          iban: 'DE89370400440532013000',
        }),
        'bank account',
      ),
    ],
    companyRelation: [
      created(
        await rest('POST', `/companies/${company}/relations`, {
          relatedCompanyId: parent,
          relationType: { id: SUBSIDIARY },
        }),
        'company relation',
      ),
    ],
    manager: [
      created(
        await rest('POST', `/companies/${company}/managed-by`, {
          personId: person,
          managerRoleId: ACCOUNT_MANAGER,
        }),
        'manager',
      ),
    ],
    peopleEntry: [
      created(await rest('POST', '/people-settings/orga-tags', { text: 'Probe' }), 'people entry'),
    ],
    companyEntry: [
      created(await rest('POST', '/company-settings/tags', { text: 'Probe' }), 'company entry'),
    ],
    personDocument: [created(await upload(`/people/${person}/documents`), 'person document')],
    companyDocument: [created(await upload(`/companies/${company}/documents`), 'company document')],
    tenant: [t.id],
    apiKey: [t.keyId],
    ...(await eventFixtures(client, t, rest, upload, webhookUrl)),
  };
  return ids;
}

let websites = 0;

/**
 * The events service's records (E, ES, W, I): a published event on a published website (so the
 * public W8-W10/W16 routes reach a real record), an event file and image, a website image, an
 * event settings entry, a contact person template, a webhook endpoint with one delivery. And
 * bookings-invitations' (K, BK, ET, IN): a ticket type of each event (publication needs an active
 * one), a public booking with its event tickets, an invitation with its token, an import job.
 */
async function eventFixtures(
  client: Client,
  t: TestTenant,
  rest: (method: string, p: string, body?: unknown) => Promise<Answer>,
  upload: (p: string, image?: Buffer) => Promise<Answer>,
  webhookUrl: string,
): Promise<IdPool> {
  const png = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    .png()
    .toBuffer();
  const website = created(
    await rest('POST', '/websites', {
      name: 'Probe portal',
      language: 'en',
      url: `https://probe-${t.id}-${websites++}.example.com/`,
      config: {
        imprintUrl: 'https://example.com/imprint',
        privacyUrl: 'https://example.com/privacy',
        texts: [{ language: 'en', title: 'Probe events' }],
      },
    }),
    'website',
  );
  created(
    await rest('PUT', `/websites/${website}/publication`, { published: true }),
    'website publication',
  );
  const start = new Date(Date.now() + 30 * 86_400_000);
  const event = created(
    await rest('POST', '/events', {
      title: 'Probe gala',
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
      timeZone: 'Europe/Berlin',
      venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
      orgaTags: [{ text: 'Probe' }],
    }),
    'event',
  );
  // K1 before the publication, whose check asks bookings-invitations for an active ticket type
  const ticketType = created(
    await rest('POST', '/tickets', {
      eventId: event,
      name: 'Probe seat',
      price: '119',
      currency: 'EUR',
      taxRateId: 'de-standard',
      quota: 1000,
    }),
    'ticket type',
  );
  created(
    await rest('PUT', `/events/${event}/publication`, { published: true, websiteIds: [website] }),
    'event publication',
  );
  const draft = created(await rest('POST', '/events', { title: 'Probe draft' }), 'event 2');
  const draftType = created(
    await rest('POST', '/tickets', {
      eventId: draft,
      name: 'Probe draft seat',
      price: '0',
      currency: 'EUR',
    }),
    'ticket type 2',
  );
  const eventFile = created(await upload(`/events/${event}/files`), 'event file');
  const eventImage = created(await upload(`/events/${event}/images`, png), 'event image');
  const websiteImage = created(await upload(`/websites/${website}/images`, png), 'website image');
  const eventEntry = created(
    await rest('POST', '/event-settings/cancellation-conditions', {
      text: 'Probe',
      data: { tiers: [{ daysBeforeStart: 14, feePercent: 50, feeFixed: '10.00' }] },
    }),
    'event settings entry',
  );
  const template = created(
    await rest('POST', '/event-settings/contact-person-templates', {
      name: 'Probe desk',
      firstname: 'Ada',
      email: 'ada@probe.example',
    }),
    'contact person template',
  );
  // The probe's own receiver (the stack allows private addresses for it). It receives
  // person.deleted only, which the probe cannot cause (its own people are never given to
  // deletes); one delivery is made here, by deleting a person of the fixtures' own.
  const webhook = created(
    await rest('POST', '/integrations/webhooks', {
      url: webhookUrl,
      eventTypes: ['person.deleted'],
    }),
    'webhook endpoint',
  );
  const doomed = created(
    await rest('POST', '/people', { firstname: 'Gone', lastname: 'Probe' }),
    'person to delete',
  );
  created(await rest('DELETE', `/people/${doomed}`), 'person delete');
  let delivery = '';
  await eventually(async () => {
    const log = await rest('GET', `/integrations/webhooks/${webhook}/deliveries`);
    delivery = log.body?.data?.[0]?.id;
    if (!delivery) throw new Error(`fixture webhook delivery: ${JSON.stringify(log.body)}`);
  }, 20_000);
  return {
    ...(await bookingFixtures(client, t, rest, event)),
    ticketType: [ticketType, draftType],
    event: [event, draft],
    website: [website],
    eventFile: [eventFile],
    eventImage: [eventImage],
    websiteImage: [websiteImage],
    eventEntry: [eventEntry],
    template: [template],
    webhook: [webhook],
    webhookDelivery: [delivery],
  };
}

/**
 * A public booking of the published event (BK1 without a key, once bookings-invitations has the
 * event's published copy), its event tickets, an invitation (IN7) with its public token, and an
 * invitation import job (IN14) run to its end (so it writes nothing during the probe).
 */
async function bookingFixtures(
  client: Client,
  t: TestTenant,
  rest: (method: string, p: string, body?: unknown) => Promise<Answer>,
  event: string,
): Promise<IdPool> {
  const types = await rest('GET', `/tickets?eventId=${event}`);
  const typeId = types.body?.data?.[0]?.id;
  if (!typeId) throw new Error(`fixture ticket types: ${JSON.stringify(types.body)}`);
  const book = async (participants: number) => {
    let booking: Answer | undefined;
    await eventually(async () => {
      booking = await client.raw('/v1/crm/bookings/public', {
        method: 'POST',
        headers: { ...tenantHeaders(t.id), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          eventId: event,
          booker: { firstname: 'Ada', lastname: 'Probe', email: 'ada@probe.example' },
          tickets: Array.from({ length: participants }, (_, i) => ({
            ticketTypeId: typeId,
            participant: { firstname: `Guest${i}`, lastname: 'Probe' },
          })),
        }),
      });
      if (booking.status !== 201)
        throw new Error(`fixture booking: ${JSON.stringify(booking.body)}`);
    }, 20_000);
    return created(booking!, 'booking');
  };
  const bookingId = await book(2);
  const tickets = await rest('GET', `/event-tickets?eventId=${event}`);
  const ticketIds = (tickets.body?.data ?? []).map((x: { id: string }) => x.id);
  if (ticketIds.length !== 2) throw new Error(`fixture tickets: ${JSON.stringify(tickets.body)}`);
  // a cancelled paid booking has a credit note (CN2's creditNoteId)
  const cancelledId = await book(1);
  created(await rest('POST', `/bookings/${cancelledId}/cancel`, {}), 'booking cancellation');
  const notes = await rest('GET', `/bookings/${cancelledId}/credit-notes`);
  const creditNote = notes.body?.data?.[0]?.id;
  if (!creditNote) throw new Error(`fixture credit note: ${JSON.stringify(notes.body)}`);
  const invited = await rest('POST', '/invitations', {
    eventId: event,
    email: 'guest@probe.example',
    firstname: 'Gina',
  });
  const invitation = created(invited, 'invitation');
  const form = new FormData();
  form.append('eventId', event);
  form.append(
    'file',
    new Blob(['E-Mail;Vorname\nimport@probe.example;Ida\n'], { type: 'text/csv' }),
    'guests.csv',
  );
  const headers: Record<string, string> = {
    ...tenantHeaders(t.id),
    Authorization: `Bearer ${t.key}`,
  };
  delete headers['Content-Type'];
  const started = await client.raw('/v1/crm/invitations/import', {
    method: 'POST',
    headers,
    body: form,
  });
  const jobId = started.body?.data?.jobId;
  if (started.status !== 202 || !jobId) {
    throw new Error(`fixture import: ${started.status} ${JSON.stringify(started.body)}`);
  }
  await eventually(async () => {
    const job = await rest('GET', `/invitations/import/${jobId}`);
    if (job.body?.data?.status !== 'done') {
      throw new Error(`fixture import job: ${JSON.stringify(job.body)}`);
    }
  }, 20_000);
  return {
    booking: [bookingId],
    creditNote: [creditNote],
    eventTicket: ticketIds,
    invitation: [invitation],
    invitationToken: [invited.body.data.token],
    importJob: [jobId],
    ...(await waitingListFixtures(client, t, rest, event)),
  };
}

/** A waiting entry (WL1) of a ticket type of one seat, sold out by a public booking first. */
async function waitingListFixtures(
  client: Client,
  t: TestTenant,
  rest: (method: string, p: string, body?: unknown) => Promise<Answer>,
  event: string,
): Promise<IdPool> {
  const type = created(
    await rest('POST', '/tickets', {
      eventId: event,
      name: 'Scarce',
      price: '0',
      currency: 'EUR',
      quota: 1,
    }),
    'scarce ticket type',
  );
  const publicPost = (path: string, body: unknown) =>
    client.raw(`/v1/crm/bookings/public${path}`, {
      method: 'POST',
      headers: { ...tenantHeaders(t.id), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const sold = await publicPost('', {
    eventId: event,
    booker: { firstname: 'Sol', lastname: 'Probe', email: 'sol@probe.example' },
    tickets: [{ ticketTypeId: type, participant: { firstname: 'Sol', lastname: 'Probe' } }],
  });
  if (sold.status !== 201) throw new Error(`fixture sold out: ${JSON.stringify(sold.body)}`);
  const joined = await publicPost(`/events/${event}/waiting-list`, {
    ticketTypeId: type,
    quantity: 1,
    email: 'wait@probe.example',
    firstname: 'Wanda',
    lastname: 'Probe',
  });
  if (joined.status !== 201) throw new Error(`fixture waiting: ${JSON.stringify(joined.body)}`);
  const list = await rest('GET', `/bookings/events/${event}/waiting-list`);
  const id = list.body?.data?.[0]?.id;
  if (!id) throw new Error(`fixture waiting list: ${JSON.stringify(list.body)}`);
  return { waitingListEntry: [id], waitingListToken: [joined.body.data.token] };
}
