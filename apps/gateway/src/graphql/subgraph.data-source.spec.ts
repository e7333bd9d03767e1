import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { GraphQLError, parse } from 'graphql';
import { API_KEY_SCOPES } from '@crm/messaging';
import type { Caller } from '../auth/gateway-auth.service';
import { ReplicaAgent } from '../routing/replicas';
import type { GatewayGraphQLContext } from './graphql-context';
import { fetchAccess, SubgraphDataSource } from './subgraph.data-source';
import { formatGatewayError } from './supergraph.service';

const caller = (modules: Caller['modules'], scopes: Caller['scopes'] = API_KEY_SCOPES): Caller => ({
  context: {
    tenantId: 't1',
    integrationName: 'n',
    integrationProvider: 'p',
    integrationContact: null,
    language: 'en',
    callerId: 'key-1',
  },
  keyId: 'key-1',
  modules,
  scopes,
});

function incoming(
  modules: Caller['modules'],
  scopes?: Caller['scopes'],
  query = 'query{people{items{id}}}',
) {
  const headers = new Map<string, string>();
  const context: GatewayGraphQLContext = {
    caller: caller(modules, scopes),
    headers: {
      'x-integration-name': 'n',
      'x-integration-provider': 'p',
      'x-integration-contact': 'c',
      'x-service-tenantid': 't1',
      'accept-language': 'en',
      'x-request-id': 'r1',
      authorization: 'Bearer secret',
      cookie: 'a=1',
      'content-length': '99',
    },
  };
  const options = {
    kind: 'incoming operation',
    incomingRequestContext: {},
    request: { query, http: { headers, method: 'POST', url: 'x' } },
    context,
  } as unknown as GraphQLDataSourceProcessOptions<GatewayGraphQLContext>;
  return { headers, options };
}

const source = () =>
  new SubgraphDataSource({
    service: 'crm-people',
    module: 'crm',
    url: 'http://127.0.0.1:1/graphql',
    internalToken: 'secret-token',
    translate: (err) => `translated ${err.messageKey} ${JSON.stringify(err.args)}`,
    dispatcher: new ReplicaAgent(),
  });

describe('SubgraphDataSource.willSendRequest', () => {
  it('forwards the tenant headers, language and request id, plus caller id and internal token', () => {
    const { headers, options } = incoming(['crm']);
    source().willSendRequest(options);
    expect(Object.fromEntries(headers)).toEqual({
      'X-Internal-Token': 'secret-token',
      'x-integration-name': 'n',
      'x-integration-provider': 'p',
      'x-integration-contact': 'c',
      'x-service-tenantid': 't1',
      'accept-language': 'en',
      'x-request-id': 'r1',
      'X-Caller-Id': 'key-1',
    });
  });

  it('refuses with FORBIDDEN / 403 when the tariff lacks the module', () => {
    const { options } = incoming(['events']);
    let thrown: unknown;
    try {
      source().willSendRequest(options);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(GraphQLError);
    expect((thrown as GraphQLError).extensions).toEqual({ code: 'FORBIDDEN', statusCode: 403 });
    expect((thrown as GraphQLError).message).toBe(
      'translated errors.auth.moduleNotInTariff {"module":"crm"}',
    );
  });

  const refusal = (options: GraphQLDataSourceProcessOptions<GatewayGraphQLContext>) => {
    try {
      source().willSendRequest(options);
    } catch (err) {
      return err as GraphQLError;
    }
    return undefined;
  };

  it('refuses a mutation fetch without the write scope, naming it; read is enough for a query', () => {
    const mutation = 'mutation($input:CreatePersonInput!){createPerson(input:$input){id}}';
    const thrown = refusal(incoming(['crm'], ['crm:read'], mutation).options);
    expect(thrown).toBeInstanceOf(GraphQLError);
    expect(thrown?.extensions).toEqual({ code: 'FORBIDDEN', statusCode: 403 });
    expect(thrown?.message).toBe('translated errors.auth.scopeMissing {"scope":"crm:write"}');
    expect(refusal(incoming(['crm'], ['crm:read']).options)).toBeUndefined();
    expect(refusal(incoming(['crm'], ['crm:write'], mutation).options)).toBeUndefined();
  });

  it('refuses a query fetch without a scope of the module, naming crm:read', () => {
    const thrown = refusal(incoming(['crm', 'events'], ['events:write']).options);
    expect(thrown?.message).toBe('translated errors.auth.scopeMissing {"scope":"crm:read"}');
  });

  it('checks the tariff before the scopes', () => {
    const thrown = refusal(incoming(['events'], []).options);
    expect(thrown?.message).toContain('errors.auth.moduleNotInTariff');
  });

  it('sends only the internal token when loading the schema', () => {
    const headers = new Map<string, string>();
    source().willSendRequest({
      kind: 'loading schema',
      request: { http: { headers, method: 'POST', url: 'x' } },
      context: {},
    } as unknown as GraphQLDataSourceProcessOptions<GatewayGraphQLContext>);
    expect(Object.fromEntries(headers)).toEqual({ 'X-Internal-Token': 'secret-token' });
  });
});

describe('fetchAccess', () => {
  it.each([
    ['query($representations:[_Any!]!){_entities(representations:$representations){id}}', 'read'],
    ['  query Q__crm_people__0{people{items{id}}}', 'read'],
    ['{people{items{id}}}', 'read'],
    ['mutation($a:String){createPerson(input:{lastname:$a}){id}}', 'write'],
    ['mutation M__crm_people__0{deletePerson(id:"x")}', 'write'],
    ['subscription{x}', 'write'],
    ['fragment F on Person{id} query{people{items{...F}}}', 'write'],
    [undefined, 'write'],
  ])('%p by its text is a %s', (query, kind) => {
    expect(fetchAccess(query)).toBe(kind);
  });

  it('prefers the document when the planner hands it over', () => {
    expect(fetchAccess('x', parse('fragment F on P{id} query{p{...F}}'))).toBe('read');
    expect(fetchAccess('query{x}', parse('mutation{x}'))).toBe('write');
  });
});

describe('formatGatewayError', () => {
  it('drops stack traces and adds the HTTP status of known codes', () => {
    expect(
      formatGatewayError({
        message: 'm',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', stacktrace: ['x'] },
      }),
    ).toEqual({ message: 'm', extensions: { code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400 } });
    expect(
      formatGatewayError({ message: 'm', extensions: { code: 'NOT_FOUND' } }).extensions,
    ).toEqual({
      code: 'NOT_FOUND',
      statusCode: 404,
    });
    expect(formatGatewayError({ message: 'm' }).extensions).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      statusCode: 500,
    });
  });

  it("keeps a subgraph's statusCode and other extensions", () => {
    expect(
      formatGatewayError({
        message: 'm',
        extensions: {
          code: 'VALIDATION_FAILED',
          statusCode: 400,
          errors: [{ field: 'x' }],
          serviceName: 's',
        },
      }).extensions,
    ).toEqual({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [{ field: 'x' }],
      serviceName: 's',
    });
  });
});
