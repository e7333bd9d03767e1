import { randomUUID } from 'node:crypto';
import { ServiceTestClient } from '@crm/testing';
import { startEvents, RunningService } from './test/service-harness';

// The rules this service uses beyond the shared catalogue (its own isTimeZone and isLanguage,
// class-validator's isISO31661Alpha2) answer their field errors in the
// caller's language like the shared rules do: their texts are in this app's validation catalogue
// (merged into the shared one). Without them the English default text of the decorator came back
// to every caller (found by the gateway's bad-input probe).

jest.setTimeout(120000);

let svc: RunningService;
let api: ServiceTestClient;
const A = `tenant-msg-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  svc = await startEvents('events_it_validation_messages');
  api = new ServiceTestClient(svc.url);
}, 90000);
afterAll(async () => {
  await svc?.app.close();
});

const fieldError = (
  body: { errors?: { field: string; rule: string; message: string }[] },
  field: string,
) => body.errors?.find((e) => e.field === field);

it.each([
  ['en', 'timeZone must be an IANA time zone such as Europe/Berlin'],
  ['de', 'timeZone muss eine IANA-Zeitzone wie Europe/Berlin sein'],
])('isTimeZone (E1) in %s', async (lang, text) => {
  const event = await api.restAs(
    A,
    'POST',
    '/events',
    { title: 'Zone', timeZone: 'Mars/Olympus' },
    {
      'Accept-Language': lang,
    },
  );
  expect(event.status).toBe(400);
  expect(fieldError(event.body, 'timeZone')).toEqual({
    field: 'timeZone',
    rule: 'isTimeZone',
    message: text,
  });
});

it.each([
  ['en', 'language must be an ISO 639-1 language code such as de or en'],
  ['de', 'language muss ein Sprachcode nach ISO 639-1 wie de oder en sein'],
])('isLanguage (W2) in %s', async (lang, text) => {
  const res = await api.restAs(
    A,
    'POST',
    '/websites',
    { name: 'Portal', url: `https://msg-${randomUUID().slice(0, 8)}.example.com/`, language: 'xx' },
    { 'Accept-Language': lang },
  );
  expect(res.status).toBe(400);
  expect(fieldError(res.body, 'language')).toEqual({
    field: 'language',
    rule: 'isLanguage',
    message: text,
  });
});

it.each([
  ['en', 'venue.country must be a country code (ISO 3166-1 alpha-2) such as DE'],
  ['de', 'venue.country muss ein Ländercode nach ISO 3166-1 Alpha-2 wie DE sein'],
])('isISO31661Alpha2 (E1 venue) in %s', async (lang, text) => {
  const res = await api.restAs(
    A,
    'POST',
    '/events',
    { title: 'Venue', venue: { name: 'Hall', country: 'XX' } },
    { 'Accept-Language': lang },
  );
  expect(res.status).toBe(400);
  expect(fieldError(res.body, 'venue.country')).toEqual({
    field: 'venue.country',
    rule: 'isISO31661Alpha2',
    message: text,
  });
});

// The payment terms' cross-field rules are the events domain's own (events.validation.<rule>).
it.each([
  [
    'en',
    { paymentDeadlineHours: 48, paymentReminderHours: 48 },
    'lessThanDeadline',
    'paymentReminderHours must be less than paymentDeadlineHours (48): the reminder comes before the deadline',
  ],
  [
    'de',
    { paymentDeadlineHours: 48, paymentReminderHours: 48 },
    'lessThanDeadline',
    'paymentReminderHours muss kleiner als paymentDeadlineHours (48) sein: die Erinnerung kommt vor der Frist',
  ],
  [
    'en',
    { paymentReminderHours: 24 },
    'needsDeadline',
    'paymentReminderHours needs paymentDeadlineHours: without a payment deadline there is nothing to remind of',
  ],
  [
    'de',
    { paymentReminderHours: 24 },
    'needsDeadline',
    'paymentReminderHours braucht paymentDeadlineHours: ohne Zahlungsfrist gibt es nichts, woran erinnert werden kann',
  ],
])('payment terms (E3) in %s: %j', async (lang, terms, rule, text) => {
  const res = await api.restAs(
    A,
    'POST',
    '/events',
    { title: 'Terms', ...terms },
    { 'Accept-Language': lang },
  );
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([{ field: 'paymentReminderHours', rule, message: text }]);
});

it.each([
  ['en', 'holdMinutes must be at most 1440'],
  ['de', 'holdMinutes darf höchstens 1440 sein'],
])('holdMinutes out of range (E3) in %s', async (lang, text) => {
  const res = await api.restAs(
    A,
    'POST',
    '/events',
    { title: 'Hold', holdMinutes: 1441 },
    { 'Accept-Language': lang },
  );
  expect(res.status).toBe(400);
  expect(fieldError(res.body, 'holdMinutes')).toEqual({
    field: 'holdMinutes',
    rule: 'max',
    message: text,
  });
});
