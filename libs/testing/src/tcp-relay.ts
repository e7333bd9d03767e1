import net from 'node:net';

/** A TCP relay in front of a real server, to take the server away from a client and give it back. */
export interface TcpRelay {
  /** host:port clients connect to instead of the server. */
  address: string;
  /** Resets every open connection and refuses new ones, as a server that died would. */
  cut(): Promise<void>;
  /** Accepts connections again (on the same port). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Relays 127.0.0.1:<free port> to `target` (host:port). Used to test what a service does when
 * its PostgreSQL goes away under it: the client sees the same resets and refusals as when the
 * server process dies, while the server itself, shared by the other tests, keeps running.
 */
export async function startTcpRelay(target: string): Promise<TcpRelay> {
  const at = target.lastIndexOf(':');
  const [host, port] = [target.slice(0, at), Number(target.slice(at + 1))];
  const open = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of open) socket.resetAndDestroy();
      server.close(() => resolve());
    });
  const relayPort = await listen(0);
  return {
    address: `127.0.0.1:${relayPort}`,
    cut: stop,
    restore: async () => {
      await listen(relayPort);
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
