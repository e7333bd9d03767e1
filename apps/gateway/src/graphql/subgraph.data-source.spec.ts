import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { GraphQLError } from 'graphql';
import type { Caller } from '../auth/gateway-auth.service';
import { ReplicaAgent } from '../routing/replicas';
import type { GatewayGraphQLContext } from './graphql-context';
import { SubgraphDataSource } from './subgraph.data-source';
import { formatGatewayError } from './supergraph.service';

const caller = (modules: Caller['modules']): Caller => ({
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
});

function incoming(modules: Caller['modules']) {
  const headers = new Map<string, string>();
  const context: GatewayGraphQLContext = {
    caller: caller(modules),
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
    request: { http: { headers, method: 'POST', url: 'x' } },
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
