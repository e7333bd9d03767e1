import { randomUUID } from 'node:crypto';
import { tenantHeaders } from './headers';
import type { RunningService } from './service';

/** One answer of a service, read once: the status, the headers and the body in three forms. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests check bodies field by field
export interface TestAnswer<T = any> {
  status: number;
  headers: Headers;
  /** The parsed JSON when the answer is JSON, else the text (a vCard, a file). */
  body: T;
  text: string;
  bytes: Buffer;
}

/** Bodies sent as they are; anything else is sent as JSON. */
const isRaw = (body: unknown): body is FormData | Blob | Uint8Array =>
  body instanceof FormData || body instanceof Blob || body instanceof Uint8Array;

async function answerOf<T>(res: Response): Promise<TestAnswer<T>> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let body: unknown = text;
  if (/\bjson\b/i.test(res.headers.get('content-type') ?? '')) {
    try {
      body = JSON.parse(text);
    } catch {
      /* a stored file declared as JSON: the text it is */
    }
  }
  return { status: res.status, headers: res.headers, body: body as T, text, bytes };
}

/**
 * REST and GraphQL calls against one running service (its base URL, or a function answering it
 * when the service starts after the client is made). `headers` of a call replace the default
 * ones, e.g. `tenantHeaders(tenant)`, entirely: a test may leave one out on purpose.
 */
export class ServiceTestClient {
  constructor(
    private readonly base: string | (() => string),
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  get url(): string {
    return typeof this.base === 'function' ? this.base() : this.base;
  }

  /** `method` on `/v1/crm<path>`; a FormData, Blob or Buffer body goes as it is, others as JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see TestAnswer
  readonly rest = async <T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = this.defaultHeaders,
  ): Promise<TestAnswer<T>> => {
    const res = await fetch(`${this.url}/v1/crm${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : isRaw(body) ? body : JSON.stringify(body),
    });
    return answerOf<T>(res);
  };

  /** A GraphQL operation at `/graphql` (always sent as JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see TestAnswer
  readonly graphql = async <T = any>(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = this.defaultHeaders,
  ): Promise<TestAnswer<T>> => {
    const res = await fetch(`${this.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return answerOf<T>(res);
  };

  /** rest() with the headers of tenant `tenant` (tenantHeaders, plus `extra`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see TestAnswer
  readonly restAs = <T = any>(
    tenant: string,
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<TestAnswer<T>> => this.rest<T>(method, path, body, tenantHeaders(tenant, extra));

  /** graphql() with the headers of tenant `tenant` (tenantHeaders, plus `extra`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see TestAnswer
  readonly graphqlAs = <T = any>(
    tenant: string,
    query: string,
    variables: Record<string, unknown> = {},
    extra: Record<string, string> = {},
  ): Promise<TestAnswer<T>> => this.graphql<T>(query, variables, tenantHeaders(tenant, extra));

  /**
   * POSTs one file as multipart/form-data (in the form field `file` unless told otherwise).
   * `headers` must leave the content type to fetch: see uploadHeaders.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see TestAnswer
  readonly upload = <T = any>(
    path: string,
    file: { data: Buffer | string; name: string; type: string; field?: string },
    headers: Record<string, string> = this.defaultHeaders,
  ): Promise<TestAnswer<T>> => {
    const form = new FormData();
    form.append(file.field ?? 'file', new Blob([file.data], { type: file.type }), file.name);
    return this.rest<T>('POST', path, form, headers);
  };
}

/**
 * The base of a domain's test kit: one running service, two fresh tenants A and B, and calls as
 * A unless told otherwise. Kits add their fixtures (rows written straight into the database, items
 * created through the API) and a static `start` booting their service.
 */
export class ServiceTestKit<S extends RunningService = RunningService> {
  readonly A = `tenant-a-${randomUUID().slice(0, 8)}`;
  readonly B = `tenant-b-${randomUUID().slice(0, 8)}`;
  /** Calls with any headers; call and gql below are the usual ones. */
  readonly api: ServiceTestClient;

  constructor(readonly svc: S) {
    this.api = new ServiceTestClient(svc.url);
  }

  /** A REST call as `tenant` (A by default), with `extra` headers. */
  call(
    method: string,
    path: string,
    body?: unknown,
    tenant = this.A,
    extra: Record<string, string> = {},
  ): Promise<TestAnswer> {
    return this.api.restAs(tenant, method, path, body, extra);
  }

  /** A GraphQL operation as `tenant` (A by default), with `extra` headers. */
  gql(
    query: string,
    variables: Record<string, unknown> = {},
    tenant = this.A,
    extra: Record<string, string> = {},
  ): Promise<TestAnswer> {
    return this.api.graphqlAs(tenant, query, variables, extra);
  }

  async close(): Promise<void> {
    await this.svc?.app.close();
  }
}
