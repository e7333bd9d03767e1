import type { LogLevel } from '@nestjs/common';

/** The LOG_LEVEL names, most severe first: a level shows itself and everything above it. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/**
 * The Nest log levels an app prints: LOG_LEVEL when set; else `log` in production (Nest's default
 * prints debug and verbose too: about 470 lines per start of the stack), `warn` in tests and
 * `debug` in development.
 */
export function logLevels(nodeEnv: string, level?: LogLevelName): LogLevel[] {
  const chosen =
    level ?? (nodeEnv === 'production' ? 'log' : nodeEnv === 'test' ? 'warn' : 'debug');
  return LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(chosen) + 1) as LogLevel[];
}

/** Where an app listens, said as it is: `0.0.0.0` is every interface, not 127.0.0.1. */
export function listenAddress(host: string, port: number): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  const every = host === '0.0.0.0' || host === '::' ? ' (every interface)' : '';
  return `${shown}:${port}${every}`;
}
