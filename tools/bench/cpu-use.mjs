// Where the machine's CPU went during a burst, by process: the apps by name and role, the
// PostgreSQL backends by database, nats-server and the bench itself. Read from /proc (Linux);
// elsewhere it answers nothing and the bench prints nothing.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the bench runs on

/** CPU seconds used so far by every process, summed per label. */
export function cpuSnapshot() {
  const used = new Map();
  let pids;
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return { at: Date.now(), used };
  }
  for (const pid of pids) {
    try {
      const seconds = cpuSecondsOf(pid);
      if (!seconds) continue;
      const label = labelOf(pid);
      if (label) used.set(label, (used.get(label) ?? 0) + seconds);
    } catch {
      // gone meanwhile
    }
  }
  return { at: Date.now(), used };
}

/**
 * CPU seconds (user and system) used so far by process `pid`, in ticks of 10 ms; null when it is
 * gone or this is not Linux.
 */
export function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name, which may hold spaces: utime is 14th, stime 15th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

function labelOf(pid) {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const line = args.join(' ');
  const app = /dist\/apps\/([\w-]+)\//.exec(line)?.[1];
  if (app) {
    const role = /(?:^|\0)PROCESS_ROLE=([\w-]+)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'));
    return role && role[1] !== 'api' ? `${app} (${role[1]})` : app;
  }
  // a backend: `postgres: [cluster: ]user database host(port)|[local] state` (the cluster name
  // only where it is set: Debian's server has one, an embedded PostgreSQL none)
  const db = /^postgres: (?:[^:\s]+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(line)?.[1];
  if (db) return `postgres ${db.replace(/^bench_\w+?_os_/, '')}`;
  if (/^postgres: /.test(line)) return 'postgres (background)';
  if (/nats-server/.test(line)) return 'nats-server';
  if (Number(pid) === process.pid) return 'the bench (clients)';
  return null;
}

/**
 * The CPU each label used between two snapshots, in cores (1 = one core busy all the time),
 * largest first, those above 2% of a core; and the machine's share used by all of them.
 */
export function cpuUse(before, after) {
  const seconds = (after.at - before.at) / 1000;
  const rows = [];
  for (const [label, s] of after.used) {
    const cores = (s - (before.used.get(label) ?? 0)) / seconds;
    if (cores >= 0.02) rows.push({ label, cores });
  }
  rows.sort((a, b) => b.cores - a.cores);
  const total = rows.reduce((n, r) => n + r.cores, 0);
  return { rows, total, machine: os.cpus().length };
}

/** One line: `total 1.9 of 2 cores: bookings-invitations 1.1, postgres bookings_invitations 0.3, …`. */
export function formatCpuUse({ rows, total, machine }) {
  if (!rows.length) return null;
  const parts = rows.map((r) => `${r.label} ${r.cores.toFixed(2)}`);
  return `${total.toFixed(2)} of ${machine} cores: ${parts.join(', ')}`;
}
