import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import { Subjects } from '@crm/messaging';
import type { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import { fieldOfHeader } from './import-file';
import { ServiceTestClient } from '@crm/testing';
import { startReplica } from '../test/service-harness';
import { copiedEvent, PeopleStandIn, startInvitationKit } from './test/invitation-test-kit';

// IN1-IN12, IN15-IN17 against the real service, database and its own NATS, with stand-ins for
// the events service and crm-people's peopleContacts responder.

jest.setTimeout(90000);

let t: TicketTestKit;
let people: PeopleStandIn;
beforeAll(async () => {
  ({ t, people } = await startInvitationKit('bookings_invitations_it_invitations'));
}, 90000);
afterAll(async () => t?.close());

const mail = () => `guest-${randomUUID().slice(0, 8)}@example.com`;

async function invite(eventId: string, over: Record<string, unknown> = {}, tenant = t.A) {
  const res = await t.call('POST', '/invitations', { eventId, email: mail(), ...over }, tenant);
  expect(res.status).toBe(201);
  return res.body.data as { id: string; token: string; email: string; status: string };
}

describe('IN7 create', () => {
  it('invites an address: token of 128 bits, status created, language from Accept-Language', async () => {
    const eventId = await copiedEvent(t, t.A);
    const res = await t.call(
      'POST',
      '/invitations',
      { eventId, email: ' Anna.Gast@Example.com ', firstname: 'Anna', lastname: 'Gast' },
      t.A,
      { 'Accept-Language': 'de-DE' },
    );
    expect(res.status).toBe(201);
    const inv = res.body.data;
    expect(inv).toMatchObject({
      eventId,
      email: 'Anna.Gast@Example.com',
      firstname: 'Anna',
      lastname: 'Gast',
      language: 'de',
      status: 'created',
      personId: null,
      bookingId: null,
    });
    expect(Buffer.from(inv.token, 'base64url')).toHaveLength(16);
    expect(inv.publicUrl).toBe(`https://portal.example.org/invitations/${inv.token}`);
    const [row] = await t.sql(`SELECT "emailKey", "createdBy" FROM "Invitation" WHERE id = $1`, [
      inv.id,
    ]);
    expect(row).toEqual({ emailKey: 'anna.gast@example.com', createdBy: 'test-suite' });
  });

  it('invites a person of crm-people: name and e-mail from there, given names win', async () => {
    const eventId = await copiedEvent(t, t.A);
    const person = people.person(t.A, { firstname: 'Paul', lastname: 'Meier', language: 'de' });
    const res = await t.call('POST', '/invitations', { eventId, personId: person, lastname: 'M.' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      personId: person,
      firstname: 'Paul',
      lastname: 'M.',
      language: 'de',
      email: expect.stringMatching(/^paula-/),
    });
    expect(people.asked).toContainEqual({ tenantId: t.A, personIds: [person] });
  });

  it('refuses a person without e-mail, an unknown or foreign person, and both or neither key', async () => {
    const eventId = await copiedEvent(t, t.A);
    const noMail = people.person(t.A, { email: null });
    const theirs = people.person(t.B);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ personId: noMail }, 'personId', 'noEmail'],
      [{ personId: theirs }, 'personId', 'unknownPerson'],
      [{ personId: noMail, email: mail() }, 'personId', 'personOrEmail'],
      [{}, 'personId', 'personOrEmail'],
    ];
    for (const [over, field, rule] of cases) {
      const res = await t.call('POST', '/invitations', { eventId, ...over }, t.A, {
        'Accept-Language': 'de',
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({ field, rule, message: expect.any(String) });
    }
    const de = await t.call('POST', '/invitations', { eventId, personId: noMail }, t.A, {
      'Accept-Language': 'de',
    });
    expect(de.body.errors[0].message).toContain('keine E-Mail-Adresse');
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });

  it('answers 503 naming crm-people when it does not answer, writing nothing', async () => {
    const eventId = await copiedEvent(t, t.A);
    const person = people.person(t.A);
    await people.stop();
    try {
      const res = await t.call('POST', '/invitations', { eventId, personId: person });
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('crm-people');
    } finally {
      await people.start();
    }
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });

  it('takes a website of the event only', async () => {
    const websiteId = randomUUID();
    const eventId = await copiedEvent(t, t.A, { websiteIds: [websiteId] });
    const ok = await t.call('POST', '/invitations', { eventId, email: mail(), websiteId });
    expect(ok.status).toBe(201);
    expect(ok.body.data.websiteId).toBe(websiteId);
    const other = await t.call('POST', '/invitations', {
      eventId,
      email: mail(),
      websiteId: randomUUID(),
    });
    expect(other.status).toBe(400);
    expect(other.body.errors[0]).toMatchObject({ field: 'websiteId', rule: 'websiteNotOfEvent' });
  });

  it('refuses an unknown or foreign event with 404', async () => {
    const theirs = await copiedEvent(t, t.B);
    const res = await t.call('POST', '/invitations', { eventId: theirs, email: mail() });
    expect(res.status).toBe(404);
    const unknown = await t.call('POST', '/invitations', { eventId: randomUUID(), email: mail() });
    expect(unknown.status).toBe(404);
  });

  it('invites an address once per event: a second is 409 naming it; 20 concurrent give one', async () => {
    const eventId = await copiedEvent(t, t.A);
    const email = mail();
    await invite(eventId, { email });
    const again = await t.call('POST', '/invitations', { eventId, email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(email.toUpperCase());
    expect(again.body.errors).toEqual([
      {
        field: 'email',
        rule: 'exists',
        message: `email: ${email.toUpperCase()} is already invited to this event`,
      },
    ]);
    // another event takes the same address
    await invite(await copiedEvent(t, t.A), { email });

    const racing = mail();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.call('POST', '/invitations', { eventId, email: racing })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(
      await t.count('Invitation', `"eventId" = $1::uuid AND "emailKey" = $2`, [eventId, racing]),
    ).toBe(1);
  });
});

describe('IN8 validate', () => {
  it('runs every check of a create and writes nothing', async () => {
    const eventId = await copiedEvent(t, t.A);
    const taken = (await invite(eventId)).email;
    const ok = await t.call('POST', '/invitations/validate', { eventId, email: mail() });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ valid: true, errors: [] });
    const bad = await t.call('POST', '/invitations/validate', { eventId, email: 'nope' });
    expect(bad.body.data.valid).toBe(false);
    expect(bad.body.data.errors[0]).toMatchObject({ field: 'email', rule: 'isEmail' });
    const dup = await t.call('POST', '/invitations/validate', { eventId, email: taken });
    expect(dup.body.data.errors).toEqual([
      { field: 'email', rule: 'unique', message: expect.stringContaining(taken) },
    ]);
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(1);
  });
});

describe('IN3-IN6 list, read, delete', () => {
  it('lists by event and status, searches names and e-mail, pages and sorts', async () => {
    const eventId = await copiedEvent(t, t.A);
    await invite(eventId, { firstname: 'Zoe', email: 'zoe@example.org' });
    await invite(eventId, { firstname: 'Adam', email: 'adam@example.org' });
    const withdrawn = await invite(eventId, { firstname: 'Bert' });
    await t.call('PUT', '/invitations/status', { ids: [withdrawn.id], status: 'withdrawn' });
    await invite(await copiedEvent(t, t.A), { firstname: 'Other' });

    const page = await t.call('GET', `/invitations?eventId=${eventId}&sort=-firstname&pageSize=2`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((i: { firstname: string }) => i.firstname)).toEqual(['Zoe', 'Bert']);
    expect(page.body.metaData.totalResults).toBe(3);
    const created = await t.call('GET', `/invitations?eventId=${eventId}&status=created`);
    expect(created.body.metaData.totalResults).toBe(2);
    const q = await t.call('GET', `/invitations?eventId=${eventId}&q=ADAM@`);
    expect(q.body.data.map((i: { firstname: string }) => i.firstname)).toEqual(['Adam']);
    const bad = await t.call('GET', `/invitations?status=maybe&sort=token`);
    expect(bad.status).toBe(400);
  });

  it('keeps every route of another tenant’s invitation a 404 and changes nothing', async () => {
    const eventId = await copiedEvent(t, t.A);
    const inv = await invite(eventId);
    for (const [method, path, body] of [
      ['GET', `/invitations/${inv.id}`],
      ['DELETE', `/invitations/${inv.id}`],
      ['PUT', `/invitations/${inv.id}/invitee-information`, { a: 1 }],
      ['GET', `/invitations/${inv.id}/mails`],
      ['DELETE', '/invitations/batch', { ids: [inv.id] }],
      ['PUT', '/invitations/status', { ids: [inv.id], status: 'withdrawn' }],
      ['POST', '/invitations/mails', { ids: [inv.id] }],
      ['POST', '/invitations/mails/free-text', { ids: [inv.id], subject: 's', text: 't' }],
      ['GET', `/invitations/public/${inv.token}`],
      ['POST', `/invitations/public/${inv.token}/reject`],
      ['GET', `/invitations/export?eventId=${eventId}`],
      ['POST', '/invitations/mails/filtered', { eventId }],
    ] as [string, string, unknown?][]) {
      const res = await t.call(method, path, body, t.B);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const list = await t.call('GET', `/invitations?eventId=${eventId}`, undefined, t.B);
    expect(list.body.metaData.totalResults).toBe(0);
    const [row] = await t.sql(
      `SELECT status, "inviteeInformation" FROM "Invitation" WHERE id = $1`,
      [inv.id],
    );
    expect(row).toEqual({ status: 'created', inviteeInformation: null });
    expect(await t.count('Mail', `"invitationId" = $1::uuid`, [inv.id])).toBe(0);
  });

  it('deletes one, and several all or nothing naming unknown ids by index', async () => {
    const eventId = await copiedEvent(t, t.A);
    const [a, b, c] = [await invite(eventId), await invite(eventId), await invite(eventId)];
    expect((await t.call('GET', `/invitations/${a.id}`)).body.data.email).toBe(a.email);
    expect((await t.call('DELETE', `/invitations/${a.id}`)).body.data).toEqual({ ids: [a.id] });
    expect((await t.call('GET', `/invitations/${a.id}`)).status).toBe(404);
    const foreign = await invite(await copiedEvent(t, t.B), {}, t.B);
    const refused = await t.call('DELETE', '/invitations/batch', { ids: [b.id, foreign.id, 'x'] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'ids[2]' })]);
    const missing = await t.call('DELETE', '/invitations/batch', { ids: [b.id, foreign.id] });
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'ids[1]' })]);
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(2);
    const done = await t.call('DELETE', '/invitations/batch', { ids: [b.id, c.id] });
    expect(done.status).toBe(200);
    expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });
});

describe('IN12 invitee information', () => {
  it('replaces it with a JSON object of at most 16 KB: 413 above, 400 for anything else', async () => {
    const inv = await invite(await copiedEvent(t, t.A));
    const ok = await t.call('PUT', `/invitations/${inv.id}/invitee-information`, {
      table: 4,
      diet: ['vegan'],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.inviteeInformation).toEqual({ table: 4, diet: ['vegan'] });
    const big = await t.call('PUT', `/invitations/${inv.id}/invitee-information`, {
      x: 'a'.repeat(16 * 1024),
    });
    expect(big.status).toBe(413);
    for (const body of [[1, 2], 'text', 12]) {
      const res = await t.call('PUT', `/invitations/${inv.id}/invitee-information`, body);
      expect(res.status).toBe(400);
    }
    expect((await t.call('GET', `/invitations/${inv.id}`)).body.data.inviteeInformation).toEqual({
      table: 4,
      diet: ['vegan'],
    });
  });
});

describe('IN16 status', () => {
  it('allows the organiser’s transitions and answers 409 naming both states otherwise', async () => {
    const eventId = await copiedEvent(t, t.A);
    const [a, b] = [await invite(eventId), await invite(eventId)];
    const w = await t.call('PUT', '/invitations/status', {
      ids: [a.id, b.id],
      status: 'withdrawn',
    });
    expect(w.status).toBe(200);
    expect(w.body.data.map((i: { status: string }) => i.status)).toEqual([
      'withdrawn',
      'withdrawn',
    ]);
    const back = await t.call('PUT', '/invitations/status', { ids: [a.id], status: 'created' });
    expect(back.body.data[0].status).toBe('created');
    // accepted is the invitee's answer
    const accepted = await t.call('PUT', '/invitations/status', {
      ids: [a.id],
      status: 'accepted',
    });
    expect(accepted.status).toBe(409);
    expect(accepted.body.message).toContain('created');
    expect(accepted.body.message).toContain('accepted');
    expect(accepted.body.errors).toEqual([
      expect.objectContaining({ field: 'ids[0]', rule: 'transition' }),
    ]);
    // all or nothing: b (withdrawn) cannot become sent, so a stays created
    const mixed = await t.call('PUT', '/invitations/status', { ids: [a.id, b.id], status: 'sent' });
    expect(mixed.status).toBe(409);
    expect(mixed.body.message).toMatch(/withdrawn.*sent/);
    expect((await t.call('GET', `/invitations/${a.id}`)).body.data.status).toBe('created');
    await t.sql(`UPDATE "Invitation" SET status = 'rejected' WHERE id = $1`, [a.id]);
    const both = await t.call('PUT', '/invitations/status', { ids: [b.id, a.id], status: 'sent' });
    expect(both.status).toBe(409);
    expect(both.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'ids[0]',
      'ids[1]',
    ]);
  });
});

describe('IN1, IN2 public', () => {
  it('shows the event and the invitee’s name, never the address or information data', async () => {
    const eventId = await copiedEvent(t, t.A, { title: 'Gala' });
    const inv = await invite(eventId, { firstname: 'Ina', inviteeInformation: { vip: true } });
    const res = await t.call('GET', `/invitations/public/${inv.token}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      event: {
        id: eventId,
        title: 'Gala',
        startsAt: '2030-06-01T08:00:00.000Z',
        endsAt: '2030-06-01T17:00:00.000Z',
        timeZone: 'Europe/Berlin',
      },
      firstname: 'Ina',
      lastname: null,
      language: 'en',
      status: 'created',
      booked: false,
      respondedAt: null,
    });
    expect(res.text).not.toContain(inv.email);
    expect(res.text).not.toContain('vip');
  });

  it('answers the same 404 for an unknown token, another tenant’s and a withdrawn one', async () => {
    const inv = await invite(await copiedEvent(t, t.A));
    const unknown = await t.call('GET', `/invitations/public/${'x'.repeat(22)}`);
    const foreign = await t.call('GET', `/invitations/public/${inv.token}`, undefined, t.B);
    await t.call('PUT', '/invitations/status', { ids: [inv.id], status: 'withdrawn' });
    const withdrawn = await t.call('GET', `/invitations/public/${inv.token}`);
    const rejectWithdrawn = await t.call('POST', `/invitations/public/${inv.token}/reject`);
    for (const r of [unknown, foreign, withdrawn, rejectWithdrawn]) {
      expect(r.status).toBe(404);
      expect(r.body.message).toBe(unknown.body.message);
    }
    const long = await t.call('GET', `/invitations/public/${'y'.repeat(3000)}`);
    expect([400, 404]).toContain(long.status); // the router refuses very long segments itself
  });

  it('rejects once: status, respondedAt and one outbox event, also for 10 concurrent clicks', async () => {
    const eventId = await copiedEvent(t, t.A, { title: 'Gala' });
    const person = people.person(t.A);
    const inv = await invite(eventId, { personId: person, email: undefined });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.call('POST', `/invitations/public/${inv.token}/reject`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const first = answers[0].body.data;
    expect(first.status).toBe('rejected');
    expect(answers.every((a) => a.body.data.respondedAt === first.respondedAt)).toBe(true);
    const events = await t.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = $1 AND payload->>'invitationId' = $2`,
      [Subjects.bookingsInvitations.invitationRejected, inv.id],
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      tenantId: t.A,
      eventId,
      eventTitle: 'Gala',
      personId: person,
      invitationId: inv.id,
    });
    const after = await t.call('GET', `/invitations/${inv.id}`);
    expect(after.body.data).toMatchObject({ status: 'rejected', respondedAt: first.respondedAt });
  });
});

describe('IN2 with a booking', () => {
  it('cancels the booking made with the invitation and frees its seats, without a fee', async () => {
    const eventId = await copiedEvent(t, t.A, {
      status: 'scheduled',
      capacity: 10,
      cancellationTiers: [{ daysBefore: 10000, percent: 50 }],
    });
    const type = await t.call('POST', '/tickets', {
      eventId,
      name: 'Seat',
      price: '100',
      currency: 'EUR',
      quota: 5,
    });
    expect(type.status).toBe(201);
    const inv = await invite(eventId);
    const booking = await t.call('POST', '/bookings/public', {
      eventId,
      invitationToken: inv.token,
      booker: { firstname: 'Ina', lastname: 'Vite', email: inv.email },
      tickets: [1, 2].map((k) => ({
        ticketTypeId: type.body.data.id,
        participant: { firstname: `P${k}`, lastname: 'G' },
      })),
    });
    expect(booking.status).toBe(201);
    const bookingId = booking.body.data.id;
    const sold = () =>
      t.sql<{ sold: number }>(`SELECT sold FROM "TicketType" WHERE id = $1::uuid`, [
        type.body.data.id,
      ]);
    expect(await sold()).toEqual([{ sold: 2 }]);
    const shown = await t.call('GET', `/invitations/public/${inv.token}`);
    expect(shown.body.data).toMatchObject({ status: 'accepted', booked: true });

    const res = await t.call('POST', `/invitations/public/${inv.token}/reject`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', booked: true });
    const [b] = await t.sql<Record<string, unknown>>(
      `SELECT status, "cancellationFee"::text AS fee, "refundAmount"::text AS refund
         FROM "Booking" WHERE id = $1::uuid`,
      [bookingId],
    );
    // open: nothing was paid, so nothing is refunded (issue 20)
    expect(b).toEqual({ status: 'cancelled', fee: '0.00', refund: '0.00' });
    expect(await sold()).toEqual([{ sold: 0 }]);
    expect(
      await t.count('EventTicket', `"bookingId" = $1::uuid AND status = 'valid'`, [bookingId]),
    ).toBe(0);
    expect(
      await t.count('OutboxEvent', `subject = $1 AND payload->>'bookingId' = $2`, [
        Subjects.bookingsInvitations.bookingCancelled,
        bookingId,
      ]),
    ).toBe(1);
    // a second click changes nothing
    const again = await t.call('POST', `/invitations/public/${inv.token}/reject`);
    expect(again.status).toBe(200);
    expect(again.body.data.respondedAt).toBe(res.body.data.respondedAt);
  });
});

describe('IN9-IN11, IN17 mails', () => {
  it('links to the portal of the invitation’s website (IN3/IN4 publicUrl, the mail’s accept and reject links); without a website to the event’s', async () => {
    const websiteId = randomUUID();
    const portal = 'https://portal.example.org/einladung/{token}';
    const eventId = await copiedEvent(t, t.A, {
      websiteIds: [websiteId],
      websites: [{ id: websiteId.toUpperCase(), invitationLink: portal }],
    });
    const onSite = await invite(eventId, { websiteId, language: 'de' });
    const noSite = await invite(eventId, {});
    const link = `https://portal.example.org/einladung/${onSite.token}`;
    const read = await t.call('GET', `/invitations/${onSite.id}`);
    expect(read.body.data.publicUrl).toBe(link);
    const list = await t.call('GET', `/invitations?eventId=${eventId}`);
    const urls = Object.fromEntries(
      list.body.data.map((i: { id: string; publicUrl: string }) => [i.id, i.publicUrl]),
    );
    expect(urls).toEqual({
      [onSite.id]: link,
      [noSite.id]: `https://portal.example.org/einladung/${noSite.token}`,
    });

    expect((await t.call('POST', '/invitations/mails', { ids: [onSite.id] })).status).toBe(202);
    const [mail] = await t.sql<{ text: string }>(
      `SELECT text FROM "Mail" WHERE "invitationId" = $1`,
      [onSite.id],
    );
    expect(mail.text).toContain(`${link}?action=accept`);
    expect(mail.text).toContain(`${link}?action=reject`);
    expect(mail.text).not.toContain('/v1/crm/');

    // a snapshot without `websites` (an older producer) keeps the links; a newer one replaces them
    await t.snapshot(t.A, eventId, { sequence: 2, websiteIds: [websiteId] });
    expect((await t.call('GET', `/invitations/${onSite.id}`)).body.data.publicUrl).toBe(link);
    await t.snapshot(t.A, eventId, {
      sequence: 3,
      websiteIds: [websiteId],
      websites: [{ id: websiteId, invitationLink: 'https://new.example.org/i/{token}?x=1' }],
    });
    expect((await t.call('GET', `/invitations/${onSite.id}`)).body.data.publicUrl).toBe(
      `https://new.example.org/i/${onSite.token}?x=1`,
    );
  });

  it('without a website: the event’s of several with the lowest id, in the mail too; PUBLIC_INVITATION_URL only for an event without a website', async () => {
    const [low, high] = ['00000000-0000-4000-8000-00000000000a', randomUUID()];
    const eventId = await copiedEvent(t, t.A, {
      websiteIds: [high, low],
      websites: [
        { id: high, invitationLink: 'https://second.example.org/i/{token}' },
        { id: low, invitationLink: 'https://first.example.org/einladung/{token}' },
      ],
    });
    const noSite = await invite(eventId, {});
    const onHigh = await invite(eventId, { websiteId: high });
    const urlOf = async (id: string) =>
      (await t.call('GET', `/invitations/${id}`)).body.data.publicUrl as string;
    expect(await urlOf(noSite.id)).toBe(`https://first.example.org/einladung/${noSite.token}`);
    expect(await urlOf(onHigh.id)).toBe(`https://second.example.org/i/${onHigh.token}`);
    expect((await t.call('POST', '/invitations/mails', { ids: [noSite.id] })).status).toBe(202);
    const [mail] = await t.sql<{ text: string }>(
      `SELECT text FROM "Mail" WHERE "invitationId" = $1`,
      [noSite.id],
    );
    expect(mail.text).toContain(
      `https://first.example.org/einladung/${noSite.token}?action=reject`,
    );

    const bare = await copiedEvent(t, t.A, { websiteIds: [], websites: [] });
    const global = await invite(bare, {});
    expect(await urlOf(global.id)).toBe(`https://portal.example.org/invitations/${global.token}`);
  });

  it('an event without a website and no PUBLIC_INVITATION_URL: publicUrl null, its mails refused naming each invitation, nothing sent', async () => {
    const bare = await copiedEvent(t, t.A, { title: 'Barn dance', websiteIds: [], websites: [] });
    const site = randomUUID();
    const onSite = await copiedEvent(t, t.A, {
      websiteIds: [site],
      websites: [{ id: site, invitationLink: 'https://portal.example.org/i/{token}' }],
    });
    const [a, b, c] = [await invite(onSite), await invite(bare), await invite(bare)];
    // a replica on the same database, deployed without PUBLIC_INVITATION_URL (the default)
    const replica = await startReplica(t.svc.databaseUrl, {
      NATS_URL: `nats://${t.nc.getServer()}`,
      PUBLIC_INVITATION_URL: '',
    });
    try {
      const api = new ServiceTestClient(replica.url);
      const shown = await api.restAs(t.A, 'GET', `/invitations/${b.id}`);
      expect(shown.body.data.publicUrl).toBeNull();
      const own = await api.restAs(t.A, 'GET', `/invitations/${a.id}`);
      expect(own.body.data.publicUrl).toBe(`https://portal.example.org/i/${a.token}`);

      const refused = await api.restAs(t.A, 'POST', '/invitations/mails', {
        ids: [a.id, b.id, c.id],
      });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        'The event Barn dance has no website to open the invitation on: give the event a website (or set PUBLIC_INVITATION_URL); no mail was sent',
      );
      expect(refused.body.errors.map((e: { field: string; rule: string }) => e)).toEqual([
        expect.objectContaining({ field: 'ids[1]', rule: 'noPage' }),
        expect.objectContaining({ field: 'ids[2]', rule: 'noPage' }),
      ]);
      const filtered = await api.restAs(
        t.A,
        'POST',
        '/invitations/mails/filtered',
        { eventId: bare },
        { 'Accept-Language': 'de' },
      );
      expect(filtered.status).toBe(409);
      expect(filtered.body.errors).toEqual([
        expect.objectContaining({ field: 'eventId', rule: 'noPage' }),
      ]);
      expect(filtered.body.message).toContain('hat keine Website');
      // all or nothing: not even the invitation with a page got its mail
      expect(await t.count('Mail', `"invitationId" = ANY($1::uuid[])`, [[a.id, b.id, c.id]])).toBe(
        0,
      );
      for (const inv of [a, b, c])
        expect((await t.call('GET', `/invitations/${inv.id}`)).body.data.status).toBe('created');
    } finally {
      await replica.app.close();
    }
  });

  it('queues the invitation mail in the invitee’s language and marks it sent', async () => {
    const eventId = await copiedEvent(t, t.A, {
      title: 'Sommerfest',
      startsAt: '2030-07-01T16:00:00.000Z',
      timeZone: 'Europe/Berlin',
    });
    const de = await invite(eventId, { firstname: 'Dora', language: 'de' });
    const en = await invite(eventId, { firstname: 'Ed', language: 'en' });
    const res = await t.call('POST', '/invitations/mails', { ids: [de.id, en.id] });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ queued: 2, invitationIds: [de.id, en.id] });
    const [deMail] = await t.sql<Record<string, string>>(
      `SELECT * FROM "Mail" WHERE "invitationId" = $1`,
      [de.id],
    );
    expect(deMail).toMatchObject({
      kind: 'invitation',
      toAddress: de.email,
      language: 'de',
      subject: 'Einladung: Sommerfest',
      status: 'queued',
      eventId,
    });
    expect(deMail.text).toContain('Guten Tag Dora');
    expect(deMail.text).toContain('18:00'); // 16:00 UTC is 18:00 in Berlin in July
    expect(deMail.text).toContain(`https://portal.example.org/invitations/${de.token}`);
    expect(deMail.text).toContain('action=reject');
    const [enMail] = await t.sql<Record<string, string>>(
      `SELECT subject, text FROM "Mail" WHERE "invitationId" = $1`,
      [en.id],
    );
    expect(enMail.subject).toBe('Invitation: Sommerfest');
    expect(enMail.text).toContain('Dear Ed');
    const after = await t.call('GET', `/invitations/${de.id}`);
    expect(after.body.data.status).toBe('sent');
    expect(after.body.data.sentAt).toEqual(expect.any(String));

    const mails = await t.call('GET', `/invitations/${de.id}/mails`);
    expect(mails.body.data).toEqual([
      expect.objectContaining({ kind: 'invitation', status: 'queued', attempts: 0 }),
    ]);
  });

  it('refuses answered or withdrawn invitations (409) and queues nothing then', async () => {
    const eventId = await copiedEvent(t, t.A);
    const [a, b] = [await invite(eventId), await invite(eventId)];
    await t.call('PUT', '/invitations/status', { ids: [b.id], status: 'withdrawn' });
    const res = await t.call('POST', '/invitations/mails', { ids: [a.id, b.id] });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('withdrawn');
    expect(await t.count('Mail', `"eventId" = $1::uuid`, [eventId])).toBe(0);
  });

  it('IN10 writes to every invitation of the filter; IN11 sends free text', async () => {
    const eventId = await copiedEvent(t, t.A);
    const [a, b, c] = [
      await invite(eventId, { firstname: 'Ann' }),
      await invite(eventId, { firstname: 'Ben' }),
      await invite(eventId, { firstname: 'Cid' }),
    ];
    await t.call('PUT', '/invitations/status', { ids: [c.id], status: 'withdrawn' });
    const one = await t.call('POST', '/invitations/mails/filtered', { eventId, q: 'ann' });
    expect(one.body.data).toEqual({ queued: 1, invitationIds: [a.id] });
    const rest = await t.call('POST', '/invitations/mails/filtered', {
      eventId,
      status: 'created',
    });
    expect(rest.body.data).toEqual({ queued: 1, invitationIds: [b.id] });
    const bad = await t.call('POST', '/invitations/mails/filtered', {
      eventId,
      status: 'rejected',
    });
    expect(bad.status).toBe(400);

    const free = await t.call('POST', '/invitations/mails/free-text', {
      ids: [a.id, b.id],
      subject: 'Parking for {firstname}',
      text: 'Hi {firstname}, park at gate 2.',
    });
    expect(free.status).toBe(202);
    const toWithdrawn = await t.call('POST', '/invitations/mails/free-text', {
      ids: [a.id, c.id],
      subject: 's',
      text: 't',
    });
    expect(toWithdrawn.status).toBe(409);
    expect(toWithdrawn.body.message).toContain('withdrawn');
    const texts = await t.sql<{ subject: string; text: string }>(
      `SELECT subject, text FROM "Mail" WHERE kind = 'invitation-free-text' AND "eventId" = $1::uuid
        ORDER BY subject`,
      [eventId],
    );
    expect(texts).toEqual([
      { subject: 'Parking for Ann', text: 'Hi Ann, park at gate 2.' },
      { subject: 'Parking for Ben', text: 'Hi Ben, park at gate 2.' },
    ]);
  });
});

describe('IN15 export', () => {
  it('streams every invitation of the event as CSV and XLSX (more than two pages)', async () => {
    const eventId = await copiedEvent(t, t.A);
    const n = 2345;
    await t.sql(
      `INSERT INTO "Invitation" (id, "tenantId", "eventId", token, email, "emailKey", firstname,
         language, status, "createdBy", "modifiedBy")
       SELECT gen_random_uuid(), $1, $2::uuid, md5(random()::text), 'g' || i || '@x.org',
              'g' || i || '@x.org', 'Jürgen', 'de', 'created', 't', 't'
         FROM generate_series(1, $3::int) i`,
      [t.A, eventId, n],
    );
    await invite(eventId, {}, t.A);
    await invite(await copiedEvent(t, t.B), {}, t.B);
    const csv = await t.call('GET', `/invitations/export?eventId=${eventId}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(
      'id,email,firstname,lastname,language,status,personId,bookingId,sentAt,respondedAt,dateCreated',
    );
    expect(lines).toHaveLength(n + 2);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(n + 1);
    expect(csv.text).toContain('Jürgen');

    const xlsx = await t.call('GET', `/invitations/export?eventId=${eventId}&format=xlsx`);
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    expect(book.worksheets[0].actualRowCount).toBe(n + 2);

    const bad = await t.call('GET', `/invitations/export?eventId=${eventId}&format=pdf`);
    expect(bad.status).toBe(400);
  });

  it('answers Accept-Language de with German headers and `;` (CSV) and German headers (XLSX) that an import reads back', async () => {
    const eventId = await copiedEvent(t, t.A);
    await invite(eventId, { email: 'jo@x.org', firstname: '=Jörg', lastname: 'Ölmann' }, t.A);
    const de = { 'Accept-Language': 'de' };
    const csv = await t.call(
      'GET',
      `/invitations/export?eventId=${eventId}&format=csv`,
      undefined,
      t.A,
      de,
    );
    expect(csv.status).toBe(200);
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    const lines = csv.text.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'ID;E-Mail;Vorname;Nachname;Sprache;Status;Person-ID;Buchungs-ID;Gesendet am;' +
        'Beantwortet am;Erstellt am',
    );
    const cells = lines[1].split(';');
    expect(cells.slice(1, 4)).toEqual(['jo@x.org', `'=Jörg`, 'Ölmann']);

    const xlsx = await t.call(
      'GET',
      `/invitations/export?eventId=${eventId}&format=xlsx`,
      undefined,
      t.A,
      de,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const header = book.worksheets[0].getRow(1).values as unknown[];
    expect(header.slice(1, 4)).toEqual(['ID', 'E-Mail', 'Vorname']);

    // the import (IN13/IN14) reads the German header names back
    expect(lines[0].split(';').map(fieldOfHeader)).toEqual([
      null,
      'email',
      'firstname',
      'lastname',
      'language',
      null,
      'personId',
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents every invitation operation with its row id', async () => {
    const res = await t.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const ops = Object.entries(
      res.body.paths as Record<string, Record<string, { summary?: string }>>,
    )
      .filter(([p]) => p.includes('/invitations'))
      .flatMap(([, methods]) => Object.values(methods).map((m) => m.summary?.split(' ')[0]));
    const rows = Array.from({ length: 17 }, (_, i) => `IN${i + 1}`);
    expect([...new Set(ops)].sort()).toEqual(rows.sort());
    expect(ops).toHaveLength(18); // IN14 has two operations: the upload and the job
    const status = res.body.paths['/v1/crm/invitations/status'].put.description;
    expect(status).toContain('withdrawn -> created');
  });
});
