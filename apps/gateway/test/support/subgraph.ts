import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLError, parse } from 'graphql';
import type { IncomingHttpHeaders } from 'node:http';

export interface Subgraph {
  /** Headers of every operation the subgraph executed (introspection included). */
  received: IncomingHttpHeaders[];
  stop(): Promise<void>;
}

const typeDefs = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Person @key(fields: "id") {
    id: ID!
    firstname: String
  }
  type Query {
    person(id: ID!): Person
  }
`);

/** A small real federation subgraph standing in for crm-people (person(id) only). */
export async function startSubgraph(port: number): Promise<Subgraph> {
  const received: IncomingHttpHeaders[] = [];
  const server = new ApolloServer<{ headers: IncomingHttpHeaders }>({
    schema: buildSubgraphSchema({
      typeDefs,
      resolvers: {
        Query: {
          person: (_: unknown, { id }: { id: string }) => {
            if (id === 'missing') {
              throw new GraphQLError('Person missing was not found', {
                extensions: { code: 'NOT_FOUND', statusCode: 404 },
              });
            }
            return { id, firstname: 'Ada' };
          },
        },
      },
    }),
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  await startStandaloneServer(server, {
    listen: { port, host: '127.0.0.1' },
    context: async ({ req }) => {
      received.push(req.headers);
      return { headers: req.headers };
    },
  });
  return { received, stop: () => server.stop() };
}
