import { createServer, type Server, type Socket } from 'node:net';
import { isDatabaseUnavailable } from '@crm/errors';
import { createPgAdapter } from '@crm/persistence';
import { PrismaClient } from '../generated/prisma/client';

// A database server that accepts the TCP connection and then says nothing (a half-dead host, a
// proxy whose backend is gone): the query must fail after the pool's connect timeout as
// "database unavailable" (503), not hold the request for ever. The generated client is the
// service's own, so the error is the one the exception filter receives.
describe('PrismaService on a database that never answers', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => silent.close(resolve));
  });

  it('fails the query as unavailable once the connect timeout has passed', async () => {
    const { port } = silent.address() as { port: number };
    const url = `postgresql://app:secret@127.0.0.1:${port}/tenant_info`;
    const prisma = new PrismaClient({ adapter: createPgAdapter(url, 2, null, 'main', 500) });
    try {
      const failure = await prisma.$queryRawUnsafe('SELECT 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeDefined();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      // the server saw the attempt: the timeout, not a refusal, ended it
      expect(sockets.length).toBeGreaterThanOrEqual(1);
    } finally {
      await prisma.$disconnect();
    }
  });
});
