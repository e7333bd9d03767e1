import type { ApolloGateway } from '@apollo/gateway';
import { createHash } from 'node:crypto';
import {
  DocumentNode,
  FormattedExecutionResult,
  getOperationAST,
  GraphQLError,
  GraphQLFormattedError,
  GraphQLSchema,
  parse,
  specifiedRules,
  validate,
  ValidationRule,
} from 'graphql';
import { AppException, ErrorCode } from '@crm/errors';
import type { GatewayGraphQLContext } from './graphql-context';

/** What @apollo/gateway's load() hands out: the API schema and the executor. */
export type LoadedGateway = Awaited<ReturnType<ApolloGateway['load']>>;
/** Runs an operation's query plan. */
export type GatewayExecutor = LoadedGateway['executor'];
type GatewayGraphQLRequestContext = Parameters<GatewayExecutor>[0];

/** A parsed and validated document, or why it was refused; kept per query text. */
type Checked =
  | { document: DocumentNode; queryHash: string }
  | { code: 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED'; errors: readonly GraphQLError[] };

/** What goes back to the client: the HTTP status and the GraphQL answer. */
export interface OperationAnswer {
  status: number;
  body: FormattedExecutionResult;
}

export interface OperationRunnerOptions {
  /** Validation rules besides graphql-js' own (limits). */
  rules?: readonly ValidationRule[];
  /** Most lexical tokens of a query: parsing stops there (graphql-js' parse option). */
  maxTokens?: number;
  /** Longest query text kept in the document cache; longer ones are checked every time. */
  maxCachedQueryLength?: number;
  /** Documents kept (least recently used go first). */
  maxCachedDocuments?: number;
  logger: GatewayGraphQLRequestContext['logger'];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withCode(error: GraphQLError, code: string): GraphQLFormattedError {
  const formatted = error.toJSON();
  return { ...formatted, extensions: { ...formatted.extensions, code } };
}

/**
 * Runs one GraphQL operation of a client on the supergraph: the body is checked, the query
 * parsed and validated once per distinct text (then taken from a bounded cache), and the
 * operation handed to @apollo/gateway's executor (query plan cache, subgraph fetches).
 *
 * Apollo Server did the same around the executor, at a cost per operation the gateway paid on
 * every call (HTTP negotiation, plugin hooks, response serialisation helpers) for features it
 * does not use here (batching, persisted queries, caching plugins, landing pages).
 */
export class OperationRunner {
  private readonly documents = new Map<string, Checked>();
  private readonly rules: readonly ValidationRule[];
  private readonly maxCachedQueryLength: number;
  private readonly maxCachedDocuments: number;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly executor: GatewayExecutor,
    private readonly options: OperationRunnerOptions,
  ) {
    this.rules = [...specifiedRules, ...(options.rules ?? [])];
    this.maxCachedQueryLength = options.maxCachedQueryLength ?? 20_000;
    this.maxCachedDocuments = options.maxCachedDocuments ?? 1000;
  }

  /** Checks the body; an unusable one is an AppException (400), answered like the other early errors. */
  async run(body: unknown, context: GatewayGraphQLContext): Promise<OperationAnswer> {
    if (Array.isArray(body))
      throw new AppException(ErrorCode.BAD_REQUEST, 'gateway.graphql.batchRefused');
    if (!isRecord(body) || typeof body.query !== 'string' || body.query.trim() === '')
      throw new AppException(ErrorCode.BAD_REQUEST, 'gateway.graphql.queryMissing');
    const { query, operationName, variables, extensions } = body;
    if (operationName != null && typeof operationName !== 'string')
      throw new AppException(ErrorCode.BAD_REQUEST, 'gateway.graphql.badField', {
        field: 'operationName',
      });
    if (variables != null && !isRecord(variables))
      throw new AppException(ErrorCode.BAD_REQUEST, 'gateway.graphql.badField', {
        field: 'variables',
      });
    if (extensions != null && !isRecord(extensions))
      throw new AppException(ErrorCode.BAD_REQUEST, 'gateway.graphql.badField', {
        field: 'extensions',
      });

    const checked = this.check(query);
    if ('errors' in checked)
      return {
        status: 400,
        body: { errors: checked.errors.map((e) => withCode(e, checked.code)) },
      };
    const operation = getOperationAST(checked.document, operationName ?? undefined);
    if (!operation) {
      const error = new GraphQLError(
        operationName
          ? `Unknown operation named "${operationName}".`
          : 'Must provide operation name if query contains multiple operations.',
      );
      return { status: 400, body: { errors: [withCode(error, 'OPERATION_RESOLUTION_FAILURE')] } };
    }
    if (operation.operation === 'subscription') {
      const error = new GraphQLError('Subscriptions are not served over HTTP POST here.');
      return { status: 400, body: { errors: [withCode(error, 'BAD_REQUEST')] } };
    }

    const result = await this.executor({
      request: {
        query,
        operationName: operationName ?? undefined,
        variables: (variables as Record<string, unknown> | null) ?? undefined,
        extensions: (extensions as Record<string, unknown> | null) ?? undefined,
      },
      logger: this.options.logger,
      schema: this.schema,
      schemaHash: '' as GatewayGraphQLRequestContext['schemaHash'],
      context,
      cache: undefined as unknown as GatewayGraphQLRequestContext['cache'],
      queryHash: checked.queryHash,
      document: checked.document,
      source: query,
      operationName: operation.name?.value ?? null,
      operation,
      metrics: {},
      overallCachePolicy: undefined,
    });
    const errors = result.errors?.map((e) =>
      e instanceof GraphQLError ? e.toJSON() : (e as GraphQLFormattedError),
    );
    // No data at all: the request itself was wrong (variables that do not coerce).
    if (result.data === undefined && errors?.length) {
      return {
        status: 400,
        body: {
          errors: errors.map((e) =>
            e.extensions?.code
              ? e
              : { ...e, extensions: { ...e.extensions, code: 'BAD_USER_INPUT' } },
          ),
        },
      };
    }
    return {
      status: 200,
      body: {
        ...(errors?.length ? { errors } : {}),
        data: result.data,
        ...(result.extensions ? { extensions: result.extensions } : {}),
      },
    };
  }

  /** Parse and validation, from the cache when this query text was seen before. */
  private check(query: string): Checked {
    const cached = this.documents.get(query);
    if (cached) {
      // least recently used first out: move to the end
      this.documents.delete(query);
      this.documents.set(query, cached);
      return cached;
    }
    let checked: Checked;
    try {
      const document = parse(query, { maxTokens: this.options.maxTokens });
      const errors = validate(this.schema, document, this.rules);
      checked = errors.length
        ? { code: 'GRAPHQL_VALIDATION_FAILED', errors }
        : { document, queryHash: createHash('sha256').update(query).digest('hex') };
    } catch (err) {
      if (!(err instanceof GraphQLError)) throw err;
      checked = { code: 'GRAPHQL_PARSE_FAILED', errors: [err] };
    }
    if (query.length <= this.maxCachedQueryLength) {
      if (this.documents.size >= this.maxCachedDocuments) {
        const oldest = this.documents.keys().next().value;
        if (oldest !== undefined) this.documents.delete(oldest);
      }
      this.documents.set(query, checked);
    }
    return checked;
  }
}
