import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { ApolloFederationDriver, ApolloFederationDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Type } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { FastifyRequest } from 'fastify';

export interface GraphQLRequestContext {
  req: FastifyRequest;
}

/**
 * The federated subgraph of a service (Federation 2, code first). The SDL is built in memory;
 * a test per service compares it with the committed `schema.graphql`, so drift is seen in review.
 */
export function subgraphModule(orphanedTypes: Type<unknown>[] = []): DynamicModule {
  return GraphQLModule.forRoot<ApolloFederationDriverConfig>({
    driver: ApolloFederationDriver,
    path: '/graphql',
    autoSchemaFile: { federation: 2 },
    sortSchema: true,
    playground: false,
    introspection: true,
    // traces go to Apollo's cloud, which we do not use
    plugins: [ApolloServerPluginInlineTraceDisabled()],
    buildSchemaOptions: { orphanedTypes },
    // @as-integrations/fastify hands the context function the request itself
    context: (req: FastifyRequest): GraphQLRequestContext => ({ req }),
  });
}
