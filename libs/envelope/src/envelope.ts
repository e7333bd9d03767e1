/** One problem with one input field: which field, which rule it broke, and why in words. */
export interface FieldError {
  field: string;
  rule: string;
  message: string;
}

/**
 * What a list may add to `metaData` beside the total (e.g. the people lists: `nextCursor`,
 * `totalResultsExact`). Scalars only: metaData stays a flat object.
 */
export type PageExtras = Record<string, string | number | boolean | null>;

/** The shape of every JSON answer of the API, successes and errors alike. */
export interface Envelope<T> {
  data: T | null;
  message: string | null;
  metaData: { totalResults: number; responseTimeStamp: string } & PageExtras;
  statusCode: number;
  errors?: FieldError[];
}

const PAGED = Symbol.for('crm.paged');

/**
 * A page of a list: the envelope carries `items` as data, the total across pages and `extras`
 * in metaData.
 */
export interface Paged<T> {
  readonly [PAGED]: true;
  readonly items: T[];
  readonly totalResults: number;
  readonly extras?: PageExtras;
}

export function paged<T>(items: T[], totalResults: number, extras?: PageExtras): Paged<T> {
  return { [PAGED]: true, items, totalResults, ...(extras ? { extras } : {}) };
}

export function isPaged(value: unknown): value is Paged<unknown> {
  return typeof value === 'object' && value !== null && PAGED in value;
}

export function envelope<T>(
  data: T,
  statusCode: number,
  message: string | null = null,
): Envelope<T> {
  let payload: unknown = data;
  let totalResults: number;
  let extras: PageExtras | undefined;
  if (isPaged(data)) {
    payload = data.items;
    totalResults = data.totalResults;
    extras = data.extras;
  } else if (Array.isArray(data)) totalResults = data.length;
  else totalResults = data === null || data === undefined ? 0 : 1;
  return {
    data: (payload ?? null) as T,
    message,
    // extras cannot replace the two fields every answer has
    metaData: { ...extras, totalResults, responseTimeStamp: new Date().toISOString() },
    statusCode,
  };
}

export function errorEnvelope(
  statusCode: number,
  message: string,
  errors?: FieldError[],
): Envelope<null> {
  return {
    data: null,
    message,
    metaData: { totalResults: 0, responseTimeStamp: new Date().toISOString() },
    statusCode,
    ...(errors?.length ? { errors } : {}),
  };
}
