import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './ports';

/** A message the test SMTP server accepted, parsed (subject, text, attachments, headers). */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** Envelope sender (MAIL FROM). */
  from: string;
  parsed: ParsedMail;
  raw: Buffer;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>` (what SMTP_URL takes). */
  url: string;
  port: number;
  /** Every message accepted since start (kept across stop/start), in arrival order. */
  messages: ReceivedMail[];
  /** Resolves with the first message matching, waiting for it up to `timeoutMs`. */
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Closes the port (open connections are dropped): an SMTP outage. */
  stop(): Promise<void>;
  /** Listens again on the same port after stop(). */
  start(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 for tests: no TLS, authentication optional,
 * messages parsed with mailparser. Stop and start it on the same port to simulate an outage.
 */
export async function startSmtpServer(
  opts: {
    port?: number;
    /** Recipients answered with 550 at RCPT TO (a permanent rejection). */
    refuseRecipient?: (address: string) => boolean;
    /**
     * A slow server: each message is accepted (kept, then answered 250) this long after its data
     * arrived, so a test can stop a sender while mails are in flight.
     */
    acceptDelayMs?: number;
  } = {},
): Promise<TestSmtpServer> {
  const port = opts.port ?? (await freePort());
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let server: SMTPServer | null = null;

  const create = () =>
    new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      logger: false,
      onRcptTo(address, _session, callback) {
        if (opts.refuseRecipient?.(address.address)) {
          const err = new Error(`mailbox ${address.address} unavailable`) as Error & {
            responseCode: number;
          };
          err.responseCode = 550;
          return callback(err);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', callback);
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          const accepted = opts.acceptDelayMs
            ? new Promise((r) => setTimeout(r, opts.acceptDelayMs))
            : Promise.resolve();
          accepted
            .then(() => simpleParser(raw))
            .then((parsed) => {
              messages.push({
                to: session.envelope.rcptTo.map((r) => r.address),
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                parsed,
                raw,
              });
              waiters.forEach((w) => w());
              callback();
            })
            .catch(callback);
        });
      },
    });

  const smtp: TestSmtpServer = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    async start() {
      if (server) return;
      const s = create();
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => {
          s.removeListener('error', reject);
          resolve();
        });
      });
      s.on('error', () => undefined); // a client's broken connection is not the test's failure
      server = s;
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      // Drop open connections at once (an outage), instead of waiting for clients to quit.
      const conns = (s as unknown as { connections?: Set<{ close(): void }> }).connections;
      conns?.forEach((c) => c.close());
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(onMessage);
          resolve(found);
          return true;
        };
        const onMessage = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(onMessage);
          reject(
            new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`),
          );
        }, timeoutMs);
        if (!check()) waiters.add(onMessage);
      });
    },
  };
  await smtp.start();
  return smtp;
}
