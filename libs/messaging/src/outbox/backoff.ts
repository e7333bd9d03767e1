/** Exponential backoff: base, 2x base, 4x base ... capped. `attempt` counts from 1. */
export function backoffMs(attempt: number, baseMs = 1000, maxMs = 60_000): number {
  const n = Math.max(1, Math.floor(attempt));
  return Math.min(maxMs, baseMs * 2 ** Math.min(n - 1, 30));
}
