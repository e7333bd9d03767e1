/** One problem with one input field: which field, which rule it broke, and why in words. */
export interface FieldError {
  field: string;
  rule: string;
  message: string;
}

/** The shape of every JSON answer of the API, successes and errors alike. */
export interface Envelope<T> {
  data: T | null;
  message: string | null;
  metaData: { totalResults: number; responseTimeStamp: string };
  statusCode: number;
  errors?: FieldError[];
}

const PAGED = Symbol.for('crm.paged');

/** A page of a list: the envelope carries `items` as data and the total across pages. */
export interface Paged<T> {
  readonly [PAGED]: true;
  readonly items: T[];
  readonly totalResults: number;
}

export function paged<T>(items: T[], totalResults: number): Paged<T> {
  return { [PAGED]: true, items, totalResults };
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
  if (isPaged(data)) {
    payload = data.items;
    totalResults = data.totalResults;
  } else if (Array.isArray(data)) totalResults = data.length;
  else totalResults = data === null || data === undefined ? 0 : 1;
  return {
    data: (payload ?? null) as T,
    message,
    metaData: { totalResults, responseTimeStamp: new Date().toISOString() },
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
