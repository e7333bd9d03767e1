import { EventTestKit } from './test/event-test-kit';

// A settings write that changes what bookings-invitations keeps of events announces them again:
// new tiers of their cancellation condition, new fields of their booking form field set, a
// booking form field set removed by force.

let t: EventTestKit;
beforeAll(async () => {
  t = await EventTestKit.start('events_it_snapshots');
}, 60000);
afterAll(async () => t?.close());

const changed = async (eventId: string) =>
  (await t.outbox(eventId)).filter((o) => o.subject === 'events.events.changed');

it('new tiers of a condition write a changed snapshot of each event using it, with the new tiers and a higher sequence', async () => {
  const created = await t.call('POST', '/event-settings/cancellation-conditions', {
    text: 'Standard terms',
    data: { tiers: [{ daysBeforeStart: 14, feePercent: 0, feeFixed: '0.00' }] },
  });
  expect(created.status).toBe(201);
  const conditionId = (created.body.data[0] ?? created.body.data).id;
  const set = await t.call('POST', '/event-settings/booking-form-field-sets', {
    text: 'Contact',
    data: { fields: [{ key: 'phone', label: 'Phone', type: 'phone', required: false }] },
  });
  const setId = (set.body.data[0] ?? set.body.data).id;
  const a = await t.event({
    title: 'A',
    cancellationConditionId: conditionId,
    bookingFormFieldSetId: setId,
  });
  const b = await t.event({ title: 'B', cancellationConditionId: conditionId });
  const other = await t.event({ title: 'Other terms' });
  expect(await changed(a.id)).toHaveLength(1);

  const tiers = [
    { daysBeforeStart: 30, feePercent: 0, feeFixed: '0.00' },
    { daysBeforeStart: 7, feePercent: 50, feeFixed: '5.00' },
  ];
  const put = await t.call('PUT', `/event-settings/cancellation-conditions/${conditionId}`, {
    data: { tiers },
  });
  expect(put.status).toBe(200);
  for (const e of [a, b]) {
    const snapshots = await changed(e.id);
    expect(snapshots).toHaveLength(2);
    expect(snapshots[1].payload).toMatchObject({
      eventId: e.id,
      sequence: e.sequence + 1,
      cancellationTiers: [
        expect.objectContaining({ daysBeforeStart: 30 }),
        expect.objectContaining({ daysBeforeStart: 7, feePercent: 50 }),
      ],
    });
  }
  expect(await changed(other.id)).toHaveLength(1);

  const forced = await t.call(
    'DELETE',
    `/event-settings/booking-form-field-sets/${setId}?force=true`,
  );
  expect(forced.status).toBe(200);
  const last = (await changed(a.id)).at(-1)!;
  expect(last.payload).toMatchObject({ bookingFormFieldSetId: null, sequence: a.sequence + 2 });
  expect(await changed(b.id)).toHaveLength(2);
});

it('the snapshot carries the fields of the booking form field set; new fields announce each event using the set again', async () => {
  const fields = [{ key: 'phone', label: 'Phone', type: 'phone', required: false }];
  const set = await t.call('POST', '/event-settings/booking-form-field-sets', {
    text: 'Dietary',
    data: { fields },
  });
  expect(set.status).toBe(201);
  const setId = (set.body.data[0] ?? set.body.data).id;
  const withSet = await t.event({ title: 'With form', bookingFormFieldSetId: setId });
  const without = await t.event({ title: 'Without form' });
  expect((await changed(withSet.id))[0].payload).toMatchObject({
    bookingFormFieldSetId: setId,
    bookingFormFields: [expect.objectContaining({ key: 'phone', type: 'phone' })],
  });
  expect((await changed(without.id))[0].payload).toMatchObject({ bookingFormFields: null });

  const newFields = [
    { key: 'phone', label: 'Phone', type: 'phone', required: true },
    { key: 'diet', label: 'Diet', type: 'text', required: false },
  ];
  const put = await t.call('PUT', `/event-settings/booking-form-field-sets/${setId}`, {
    data: { fields: newFields },
  });
  expect(put.status).toBe(200);
  const snapshots = await changed(withSet.id);
  expect(snapshots).toHaveLength(2);
  expect(snapshots[1].payload).toMatchObject({
    sequence: withSet.sequence + 1,
    bookingFormFields: [
      expect.objectContaining({ key: 'phone', required: true }),
      expect.objectContaining({ key: 'diet' }),
    ],
  });
  expect(await changed(without.id)).toHaveLength(1);

  // a change of the text only is no change of the snapshot
  const renamed = await t.call('PUT', `/event-settings/booking-form-field-sets/${setId}`, {
    text: 'Dietary needs',
  });
  expect(renamed.status).toBe(200);
  expect(await changed(withSet.id)).toHaveLength(2);

  const forced = await t.call(
    'DELETE',
    `/event-settings/booking-form-field-sets/${setId}?force=true`,
  );
  expect(forced.status).toBe(200);
  expect((await changed(withSet.id)).at(-1)!.payload).toMatchObject({
    bookingFormFieldSetId: null,
    bookingFormFields: null,
    sequence: withSet.sequence + 2,
  });
});

it('a website’s invitation link (url or template changed, website deleted) announces each event on it again, with the link', async () => {
  const websiteId = await t.website(t.A, false);
  const [{ url }] = await t.sql<{ url: string }>(`SELECT url FROM "Website" WHERE id = $1::uuid`, [
    websiteId,
  ]);
  const on = await t.event({ title: 'On the portal' });
  const off = await t.event({ title: 'Elsewhere' });
  await t.sql(
    `INSERT INTO "EventWebsite" ("tenantId", "eventId", "websiteId") VALUES ($1, $2::uuid, $3::uuid)`,
    [t.A, on.id, websiteId],
  );

  const put = await t.call('PUT', `/websites/${websiteId}`, {
    invitationLinkTemplate: '{websiteUrl}/einladung/{token}?src=mail',
  });
  expect(put.status).toBe(200);
  const base = url.replace(/\/+$/, '');
  expect(put.body.data.invitationLink).toBe(`${base}/einladung/{token}?src=mail`);
  let snapshots = await changed(on.id);
  expect(snapshots).toHaveLength(2);
  expect(snapshots[1].payload).toMatchObject({
    sequence: on.sequence + 1,
    websiteIds: [websiteId],
    websites: [
      {
        id: websiteId,
        invitationLink: `${base}/einladung/{token}?src=mail`,
        // the portal's page of a waiting-list entry (its offer mail's link)
        waitingListLink: `${base}/waiting-list/{token}`,
      },
    ],
  });
  expect(await changed(off.id)).toHaveLength(1);

  // a change that leaves the link as it was announces nothing
  expect((await t.call('PUT', `/websites/${websiteId}`, { name: 'Renamed' })).status).toBe(200);
  expect(await changed(on.id)).toHaveLength(2);

  // back to the default
  expect(
    (await t.call('PUT', `/websites/${websiteId}`, { invitationLinkTemplate: null })).status,
  ).toBe(200);
  snapshots = await changed(on.id);
  expect(snapshots[2].payload).toMatchObject({
    websites: [{ id: websiteId, invitationLink: `${base}/invitations/{token}` }],
  });

  expect((await t.call('DELETE', `/websites/${websiteId}`)).status).toBe(200);
  snapshots = await changed(on.id);
  expect(snapshots[3].payload).toMatchObject({ websiteIds: [], websites: [] });
});
