import { ChildProcess, spawn } from 'node:child_process';

export interface NatsProcess {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A nats-server with JetStream on `port`, storing in `storeDir`; restartable with the same store. */
export async function natsServer(port: number, storeDir: string): Promise<NatsProcess> {
  let child: ChildProcess | null = null;
  const proc: NatsProcess = {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      const c = spawn(
        'nats-server',
        ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      child = c;
      let log = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`nats-server did not start:\n${log}`)),
          10000,
        );
        c.stderr!.on('data', (b: Buffer) => {
          log += b.toString();
          if (log.includes('Server is ready')) {
            clearTimeout(timer);
            resolve();
          }
        });
        c.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`nats-server exited (${code}):\n${log}`));
        });
      });
      c.removeAllListeners('exit');
      c.stderr!.removeAllListeners('data');
      c.stderr!.resume();
    },
    async stop() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        // SIGKILL: a crash, not a graceful shutdown; the file store must survive it.
        c.kill('SIGKILL');
      });
    },
  };
  await proc.start();
  return proc;
}
