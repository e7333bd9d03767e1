import { GraphQLError, GraphQLScalarType, Kind, ValueNode } from 'graphql';

// A JSON object as a GraphQL value (answers, booker and participant information, integration
// data): one scalar for the whole subgraph, so every domain of this service imports this one.

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      // variables inside a literal object are not supported
      throw new GraphQLError('JSONObject: variables inside an object literal are not supported');
  }
}

export const JSONObject = new GraphQLScalarType({
  name: 'JSONObject',
  description: 'A JSON object',
  serialize: (v) => v,
  parseValue: (v) => {
    if (!isObject(v)) throw new GraphQLError('JSONObject must be an object');
    return v;
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.OBJECT) throw new GraphQLError('JSONObject must be an object');
    return literal(node);
  },
});
