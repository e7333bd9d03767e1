import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Issue 23, soak: the 3-minute version of `npm run soak` (tools/soak/run.mjs), on the whole
// stack as `npm start` runs it, at a steady 20 requests per second of the soak's mix through the
// gateway (reads, creates, deletes, GraphQL; three tenants). Every request must succeed, and no
// app's memory or p99 may grow past the bounds below from minute 2 to minute 3 (minute 1 is the
// warm-up). A 3-minute run beside another e2e file on a shared 2-core machine cannot show the
// 30-minute run's 10 % (its p99 moves by more than that from one minute to the next): it catches
// a gross leak or a slowdown, and that the tool works; the figure of record is `npm run soak`'s.

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, '../../..');

interface SoakResult {
  failed: number;
  skipped: number;
  minutes: { minute: number; rate: number }[];
  verdicts: { app: string; memoryDrift: number; p99Drift: number | null; flat: boolean }[];
  flat: boolean;
}

it('3 minutes of mixed load: nothing fails, memory and p99 of every app stay within bounds', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const json = path.join(dir, 'soak.json');
  try {
    const child = spawn(process.execPath, [path.join(ROOT, 'tools/soak/run.mjs')], {
      cwd: ROOT,
      env: {
        ...process.env,
        SOAK_MINUTES: '3',
        SOAK_RATE: '20',
        SOAK_TOLERANCE: '0.25',
        SOAK_P99_TOLERANCE: '2.0', // a bucketed p99 of one busy minute doubled (2.08x) with nothing wrong
        SOAK_SKIP_BUILD: '1', // the e2e tier built dist/ before any file ran
        SOAK_DATABASE: 'server', // the tier's server as it is, autovacuum or not: 3 minutes
        SOAK_JSON: json,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const result = JSON.parse(readFileSync(json, 'utf8')) as SoakResult;
    if (code !== 0) console.log(output.slice(-6000));
    expect(result.minutes).toHaveLength(3);
    for (const m of result.minutes) expect(m.rate).toBeGreaterThan(15);
    expect(result.failed).toBe(0);
    expect(result.skipped).toBe(0);
    expect(result.verdicts.filter((v) => !v.flat)).toEqual([]);
    expect(result.verdicts.map((v) => v.app)).toEqual(
      expect.arrayContaining(['gateway', 'crm-people', 'events-worker', 'bookings-mail-worker']),
    );
    expect(code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
