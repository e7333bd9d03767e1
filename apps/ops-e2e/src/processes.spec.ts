import { runEsm, tool } from './support/esm';

const PROCESSES = tool('tools/dev/processes.mjs');
const OUTPUT = tool('tools/dev/output.mjs');

// Real child processes (plain `node -e`), supervised as the launcher does with the apps.
const harness = `
  const { Supervisor, waitForHttp } = await import(${JSON.stringify(PROCESSES)});
  const { Output } = await import(${JSON.stringify(OUTPUT)});
  let text = '';
  const out = new Output((s) => (text += s));
  const exits = [];
  const supervisor = new Supervisor(out, {
    labelWidth: 4,
    onUnexpectedExit: (name, code, signal) => exits.push({ name, code, signal }),
  });
  const node = (code) => [process.execPath, ['-e', code]];
`;

describe('process supervisor', () => {
  it('prefixes child output with the app name and reports an unexpected exit', async () => {
    const r = await runEsm<{ text: string; exits: unknown[] }>(
      `${harness}
       const entry = supervisor.start('crm', ...node("console.log('hello'); console.error('oops'); process.exit(3)"));
       await entry.done;
       await new Promise((r) => setTimeout(r, 50));
       return { text, exits };`,
    );
    expect(r.text.split('\n').sort()).toEqual(['', 'crm  | hello', 'crm  | oops']);
    expect(r.exits).toEqual([{ name: 'crm', code: 3, signal: null }]);
  });

  it('keeps a quiet child silent unless it dies', async () => {
    const r = await runEsm<{ text: string }>(
      `${harness}
       const entry = supervisor.start('nats', ...node("console.log('banner'); process.exit(1)"), { quiet: true });
       await entry.done;
       return { text };`,
    );
    expect(r.text).toBe('nats | banner\n');
  });

  it('stops every child on stopAll without calling it unexpected', async () => {
    const r = await runEsm<{ exits: unknown[]; signals: (string | null)[]; ms: number }>(
      `${harness}
       const a = supervisor.start('a', ...node('setInterval(() => {}, 1000)'));
       const b = supervisor.start('b', ...node('setInterval(() => {}, 1000)'));
       await new Promise((r) => setTimeout(r, 200));
       const t = Date.now();
       await supervisor.stopAll(5000);
       return { exits, signals: [a.signal, b.signal], ms: Date.now() - t };`,
    );
    expect(r.exits).toEqual([]);
    expect(r.signals).toEqual(['SIGTERM', 'SIGTERM']);
    expect(r.ms).toBeLessThan(5000);
  });

  it('kills a child that ignores SIGTERM once the time is up', async () => {
    const r = await runEsm<{ signal: string; text: string }>(
      `${harness}
       const a = supervisor.start('stubborn', ...node("process.on('SIGTERM', () => {}); console.log('armed'); setInterval(() => {}, 1000)"));
       // a fixed pause was not enough on a busy machine: SIGTERM came before the handler existed
       while (!text.includes('armed')) await new Promise((r) => setTimeout(r, 20));
       await supervisor.stopAll(300);
       return { signal: a.signal, text };`,
    );
    expect(r.signal).toBe('SIGKILL');
    expect(r.text).toContain('stubborn did not stop within 0.3 s: killed');
  });

  it('stops waiting for readiness as soon as the app exits', async () => {
    const r = await runEsm<{ message: string; ms: number }>(
      `${harness}
       const entry = supervisor.start('crm', ...node('process.exit(2)'));
       const t = Date.now();
       try {
         await waitForHttp('http://127.0.0.1:9/health/ready', { entry, timeoutMs: 20000 });
       } catch (err) {
         return { message: err.message, ms: Date.now() - t };
       }`,
    );
    expect(r.message).toBe('crm exited with code 2 before it was ready');
    expect(r.ms).toBeLessThan(5000);
  });
});
