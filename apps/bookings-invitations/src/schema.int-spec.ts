import { GraphQLSchemaHost } from '@nestjs/graphql';
import { printSubgraphSchema } from '@apollo/subgraph';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startBookingsInvitations, RunningService } from './test/service-harness';

// The subgraph SDL is committed so schema changes show up in review; this test fails on drift.
// After an intended change: UPDATE_SCHEMA=1 node tools/test.mjs int --project bookings-invitations
const FILE = path.join(__dirname, 'schema.graphql');

let svc: RunningService;
beforeAll(async () => {
  svc = await startBookingsInvitations('bookings_invitations_it_schema');
});
afterAll(async () => svc?.app.close());

it('matches the committed subgraph schema', () => {
  const sdl = printSubgraphSchema(svc.app.get(GraphQLSchemaHost).schema);
  if (process.env.UPDATE_SCHEMA === '1') writeFileSync(FILE, sdl);
  expect(sdl).toBe(readFileSync(FILE, 'utf8'));
});
