import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, GraphQLFormattedError, ValidationContext, ValidationRule } from 'graphql';
import type { GatewayConfig } from '../config';

/**
 * What a GraphQL operation may ask of the gateway. Depth, aliases, cost and directives are
 * graphql-armor validation rules; the token limit is graphql-js's own parse option (it counts
 * while lexing, so an oversized document is never parsed whole). The OperationRunner keeps each
 * query text's parse and validation result in its document cache: the rules run once per
 * distinct query text, not per request.
 */
export interface GraphqlLimits {
  depth: number;
  aliases: number;
  tokens: number;
  cost: number;
  directives: number;
}

export const limitsOf = (config: GatewayConfig): GraphqlLimits => ({
  depth: config.GRAPHQL_MAX_DEPTH,
  aliases: config.GRAPHQL_MAX_ALIASES,
  tokens: config.GRAPHQL_MAX_TOKENS,
  cost: config.GRAPHQL_MAX_COST,
  directives: config.GRAPHQL_MAX_DIRECTIVES,
});

/**
 * graphql-armor throws its rejection ("Syntax Error: Query depth limit of 10 exceeded, found
 * 12."), which graphql-js would not catch. Reported instead, it becomes an ordinary validation
 * error (HTTP 400, GRAPHQL_VALIDATION_FAILED) naming the limit, the allowed and the found figure.
 */
const report =
  (limit: keyof GraphqlLimits, max: number) =>
  (context: ValidationContext | null, error: GraphQLError) =>
    context?.reportError(
      new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
        extensions: { limit, max },
      }),
    );

const rejecting = (limit: keyof GraphqlLimits, max: number) => ({
  propagateOnRejection: false,
  onReject: [report(limit, max)],
});

/** The validation rules of the limits (besides graphql's own). */
export function limitRules(limits: GraphqlLimits): ValidationRule[] {
  return [
    maxDepthRule({ n: limits.depth, ...rejecting('depth', limits.depth) }),
    maxAliasesRule({ n: limits.aliases, ...rejecting('aliases', limits.aliases) }),
    costLimitRule({ maxCost: limits.cost, ...rejecting('cost', limits.cost) }),
    maxDirectivesRule({ n: limits.directives, ...rejecting('directives', limits.directives) }),
  ] as ValidationRule[];
}

const TOKENS = /^Syntax Error: Document contains more that (\d+) tokens\. Parsing aborted\.$/;
const SUGGESTION = / ?Did you mean [^?]*\?/g;

/**
 * Names the token limit in graphql-js' parse message, and drops field suggestions when they are
 * off (also those of variable coercion, which validation options do not reach). Runs on errors
 * only, never on a good request.
 */
export function clarifyError(
  formatted: GraphQLFormattedError,
  options: { suggestions: boolean },
): GraphQLFormattedError {
  const { message } = formatted;
  const tokens = TOKENS.exec(message);
  if (tokens) {
    const max = Number(tokens[1]);
    return {
      ...formatted,
      message: `Token limit of ${max} exceeded: the document has more than ${max} tokens.`,
      extensions: { ...formatted.extensions, limit: 'tokens', max },
    };
  }
  if (!options.suggestions && message.includes('Did you mean')) {
    return { ...formatted, message: message.replace(SUGGESTION, '') };
  }
  return formatted;
}
