// The tenant's event settings object (ES1-ES3, table EventSettings): absent row = defaults.

export const DEFAULT_TIME_ZONE = 'Europe/Berlin';
export const DEFAULT_CURRENCY = 'EUR';

/** Defaults for new events; every id names an entry that existed when the settings were saved. */
export interface EventDefaults {
  capacity: number | null;
  /** An entry of event-categories. */
  categoryId: string | null;
  /** An entry of booking-form-field-sets. */
  bookingFormFieldSetId: string | null;
  /** An entry of cancellation-conditions. */
  cancellationConditionId: string | null;
  /** An id of the tax-rates vendor list (e.g. de-standard). */
  taxRateId: string | null;
  /** A contact person template. */
  contactPersonTemplateId: string | null;
}

/** The sender printed on invoices. */
export interface InvoiceSender {
  name: string | null;
  street: string | null;
  zip: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  vatId: string | null;
  taxNumber: string | null;
  email: string | null;
  phone: string | null;
  iban: string | null;
  bic: string | null;
}

export interface EventSettingsObject {
  /** IANA zone of new events. */
  timeZone: string;
  /** ISO 4217 code. */
  currency: string;
  eventDefaults: EventDefaults;
  invoiceSender: InvoiceSender;
  /** When they were last saved; null while the tenant has the defaults. */
  dateModified: string | null;
}

export const EVENT_DEFAULT_KEYS = [
  'capacity',
  'categoryId',
  'bookingFormFieldSetId',
  'cancellationConditionId',
  'taxRateId',
  'contactPersonTemplateId',
] as const satisfies readonly (keyof EventDefaults)[];

export const INVOICE_SENDER_KEYS = [
  'name',
  'street',
  'zip',
  'city',
  'country',
  'vatId',
  'taxNumber',
  'email',
  'phone',
  'iban',
  'bic',
] as const satisfies readonly (keyof InvoiceSender)[];

const pick = <K extends string>(keys: readonly K[], raw: unknown): Record<K, never> => {
  const obj =
    raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  return Object.fromEntries(keys.map((k) => [k, obj[k] ?? null])) as Record<K, never>;
};

/** The settings object of a row (null: the defaults); unknown keys in the JSON columns are dropped. */
export function settingsFromRow(
  row: {
    timeZone: string;
    currency: string;
    eventDefaults: unknown;
    invoiceSender: unknown;
    dateModified: Date;
  } | null,
): EventSettingsObject {
  return {
    timeZone: row?.timeZone ?? DEFAULT_TIME_ZONE,
    currency: row?.currency ?? DEFAULT_CURRENCY,
    eventDefaults: pick(EVENT_DEFAULT_KEYS, row?.eventDefaults),
    invoiceSender: pick(INVOICE_SENDER_KEYS, row?.invoiceSender),
    dateModified: row ? row.dateModified.toISOString() : null,
  };
}
