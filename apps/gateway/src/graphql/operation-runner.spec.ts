import { buildSchema, GraphQLError, ValidationContext } from 'graphql';
import { AppException } from '@crm/errors';
import type { GatewayGraphQLContext } from './graphql-context';
import { GatewayExecutor, OperationRunner } from './operation-runner';

// The executor is @apollo/gateway's (query plans, subgraph fetches: covered by graphql.int-spec
// and the e2e tests); here it is a stand-in recording what the runner hands it.

const schema = buildSchema(`
  type Person { id: ID! firstname: String }
  type Query { person(id: ID!): Person }
`);
const context = {} as GatewayGraphQLContext;
const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function setup(result: Awaited<ReturnType<GatewayExecutor>> = { data: { person: null } }) {
  const calls: Parameters<GatewayExecutor>[0][] = [];
  const executor: GatewayExecutor = async (ctx) => {
    calls.push(ctx);
    return result;
  };
  let validations = 0;
  const counting = (_ctx: ValidationContext) => {
    validations++;
    return {};
  };
  const runner = new OperationRunner(schema, executor, {
    logger,
    rules: [counting],
    maxCachedDocuments: 2,
  });
  return { runner, calls, validations: () => validations };
}

const appError = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppException);
  return err as AppException;
};

describe('OperationRunner', () => {
  it('hands a valid operation to the executor with its document, variables and context', async () => {
    const { runner, calls } = setup({ data: { person: { id: '1' } } });
    const answer = await runner.run(
      { query: 'query P($id: ID!) { person(id: $id) { id } }', variables: { id: '1' } },
      context,
    );
    expect(answer).toEqual({ status: 200, body: { data: { person: { id: '1' } } } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      request: { variables: { id: '1' } },
      operationName: 'P',
      context,
      queryHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(calls[0].document.kind).toBe('Document');
  });

  it('parses and validates a query text once, then takes it from the cache', async () => {
    const { runner, validations } = setup();
    for (let i = 0; i < 3; i++) await runner.run({ query: '{ person(id: "1") { id } }' }, context);
    expect(validations()).toBe(1);
  });

  it('the cache is bounded: the least recently used text is checked again', async () => {
    const { runner, validations } = setup();
    const q = (n: number) => ({ query: `{ person(id: "${n}") { id } }` });
    await runner.run(q(1), context);
    await runner.run(q(2), context);
    await runner.run(q(1), context); // 1 is now the most recent
    await runner.run(q(3), context); // evicts 2
    expect(validations()).toBe(3);
    await runner.run(q(1), context);
    expect(validations()).toBe(3);
    await runner.run(q(2), context);
    expect(validations()).toBe(4);
  });

  it('a batch (array body) is refused', async () => {
    const { runner, calls } = setup();
    const err = await appError(runner.run([{ query: '{ person(id: "1") { id } }' }], context));
    expect(err).toMatchObject({ status: 400, messageKey: 'gateway.graphql.batchRefused' });
    expect(calls).toHaveLength(0);
  });

  it.each([undefined, null, 'text', {}, { query: '' }, { query: 42 }])(
    'a body without a query string (%p) is refused',
    async (body) => {
      const err = await appError(setup().runner.run(body, context));
      expect(err).toMatchObject({ status: 400, messageKey: 'gateway.graphql.queryMissing' });
    },
  );

  it.each([
    ['variables', { variables: [1] }],
    ['variables', { variables: 'x' }],
    ['operationName', { operationName: 5 }],
    ['extensions', { extensions: 'x' }],
  ])('a wrong %s is refused naming the field', async (field, extra) => {
    const err = await appError(
      setup().runner.run({ query: '{ person(id: "1") { id } }', ...extra }, context),
    );
    expect(err).toMatchObject({ status: 400, args: { field } });
  });

  it('a syntax error is 400 GRAPHQL_PARSE_FAILED, an unknown field 400 GRAPHQL_VALIDATION_FAILED', async () => {
    const { runner, calls } = setup();
    const parse = await runner.run({ query: '{ person(id: "1") { id }' }, context);
    expect(parse.status).toBe(400);
    expect(parse.body.errors![0].extensions).toEqual({ code: 'GRAPHQL_PARSE_FAILED' });
    const invalid = await runner.run({ query: '{ person(id: "1") { nope } }' }, context);
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors![0]).toMatchObject({
      message: expect.stringContaining('nope'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(calls).toHaveLength(0);
  });

  it('an operation name that is not in the document is 400 OPERATION_RESOLUTION_FAILURE', async () => {
    const { runner } = setup();
    const two = 'query A { person(id: "1") { id } } query B { person(id: "2") { id } }';
    for (const body of [{ query: two }, { query: two, operationName: 'C' }]) {
      const answer = await runner.run(body, context);
      expect(answer.status).toBe(400);
      expect(answer.body.errors![0].extensions).toEqual({ code: 'OPERATION_RESOLUTION_FAILURE' });
    }
    expect((await runner.run({ query: two, operationName: 'B' }, context)).status).toBe(200);
  });

  it('errors without data (variables that do not coerce) are 400 BAD_USER_INPUT', async () => {
    const { runner } = setup({
      errors: [new GraphQLError('Variable "$id" of required type "ID!" was not provided.')],
    });
    const answer = await runner.run(
      { query: 'query P($id: ID!) { person(id: $id) { id } }' },
      context,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT' });
  });

  it('errors beside data (a subgraph refused a field) keep status 200 and the data', async () => {
    const error = new GraphQLError('Person 1 was not found', {
      path: ['person'],
      extensions: { code: 'NOT_FOUND', statusCode: 404 },
    });
    const { runner } = setup({ data: { person: null }, errors: [error] });
    const answer = await runner.run({ query: '{ person(id: "1") { id } }' }, context);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [
        {
          message: 'Person 1 was not found',
          path: ['person'],
          extensions: { code: 'NOT_FOUND', statusCode: 404 },
        },
      ],
      data: { person: null },
    });
  });
});
