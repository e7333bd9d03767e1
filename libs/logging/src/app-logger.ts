import type { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { hostname } from 'node:os';
import pino, { type Logger, type LevelWithSilent } from 'pino';
import { LOG_LEVELS, logLevels, type LogLevelName } from '@crm/config';
import { redactFields, redactText } from './redaction';
import { currentRequest } from './request-context';

export interface AppLoggerOptions {
  /** The app's name, in every line (`app`). */
  app: string;
  nodeEnv: string;
  /** LOG_LEVEL: Nest's names (fatal, error, warn, log, debug, verbose). */
  level?: LogLevelName;
  /**
   * Human-readable lines (pino-pretty) instead of JSON: LOG_PRETTY=1, which the dev launcher sets
   * when its own output is a terminal. Never in production, where lines go to a collector.
   */
  pretty?: boolean;
  /** Where the lines go (tests); stdout by default. */
  destination?: pino.DestinationStream;
}

/** Nest's level names as pino's: `log` is pino's `info`, `verbose` its `trace`. */
const PINO_LEVEL: Record<LogLevelName, LevelWithSilent> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** The pino level of LOG_LEVEL, with logLevels' defaults per NODE_ENV. */
export function pinoLevel(nodeEnv: string, level?: LogLevelName): LevelWithSilent {
  const shown = logLevels(nodeEnv, level);
  const mostVerbose = LOG_LEVELS.filter((l) => shown.includes(l)).at(-1) ?? 'log';
  return PINO_LEVEL[mostVerbose];
}

/** An Error as a log field, with secrets in its message and stack replaced. */
function errorField(err: unknown) {
  const fields = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  for (const key of ['message', 'stack'] as const) {
    if (typeof fields[key] === 'string') fields[key] = redactText(fields[key]);
  }
  return fields;
}

/**
 * pino's `time` field, as its isoTime writes it (`,"time":"2026-11-29T23:58:12.345Z"`), with the
 * part up to the second formatted once a second: a Date and its toISOString on every line were
 * the largest single cost of a request line in the gateway's profile.
 */
export function isoTimeField(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = `,"time":"${new Date(second * 1000).toISOString().slice(0, 20)}`;
  }
  return `${isoPrefix}${String(now - second * 1000).padStart(3, '0')}Z"`;
}
let isoSecond = NaN;
let isoPrefix = '';

/** What the mixin gives a line with nothing to add (never changed: see mergeMixin). */
const NOTHING: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The fields of the request or message being handled (requestId, tenant, traceId), for a line
 * that does not carry them itself (logRequest's lines carry both keys, the tenant undefined when
 * there is none; a line with its own requestId alone keeps the context's tenant): a copy, as the
 * merge below writes the line's own fields into it.
 */
function requestMixin(line: object): Record<string, unknown> {
  if ('requestId' in line && 'tenant' in line) return NOTHING;
  const fields = currentRequest();
  return fields ? { ...fields } : NOTHING;
}

/** pino's default merge (the line's fields over the mixin's), without writing into NOTHING. */
const mergeMixin = (line: object, mixin: object): object =>
  mixin === NOTHING ? line : Object.assign(mixin, line);

/**
 * The app's pino logger: JSON lines with level (as a word), ISO time, app, and whatever the
 * call adds; secrets redacted by key (redactFields) and in text (redactText).
 */
export function createAppLogger(opts: AppLoggerOptions): Logger {
  const options: pino.LoggerOptions = {
    level: pinoLevel(opts.nodeEnv, opts.level),
    base: { app: opts.app, host: hostname() },
    timestamp: () => isoTimeField(),
    formatters: { level: (label) => ({ level: label }), log: redactFields },
    serializers: { err: errorField, error: errorField },
    // read only when a line is written
    mixin: requestMixin,
    mixinMergeStrategy: mergeMixin,
    hooks: {
      // the message text (and string arguments) of every line: URL passwords, bearer tokens
      logMethod(args, method) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? redactText(a) : a)) as Parameters<typeof method>,
        );
      },
    },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (opts.pretty && opts.nodeEnv !== 'production') {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        options: {
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,host,app',
          singleLine: true,
          colorize: !process.env.NO_COLOR,
        },
      },
    });
  }
  return pino(options, pino.destination(STDOUT_BATCHES));
}

/**
 * Lines reach stdout in batches: one write per 4 KB of lines, or every 200 ms when fewer come,
 * instead of a write call per line (a fifth of the cost of a request line in the gateway's
 * profile). pino flushes what is left when the process exits, also after an uncaught error;
 * kill -9 loses at most the last 200 ms of lines. A collector that stops reading makes the app
 * drop lines beyond 8 MB instead of blocking every request on a full pipe.
 */
const STDOUT_BATCHES = {
  dest: 1,
  sync: false,
  minLength: 4096,
  periodicFlush: 200,
  maxLength: 8 * 1024 * 1024,
};

/** An app's logging: the pino logger and Nest's logger over it. */
export interface AppLogging {
  log: Logger;
  /** For NestFactory's `logger`: every `new Logger(context)` of the app writes through it. */
  nest: LoggerService;
}

/**
 * The app's logging through nestjs-pino. Its root logger is one per process (the first app's):
 * one app runs per process except in tests that start several apps in one, whose lines outside a
 * request then name the first.
 */
export function createAppLogging(opts: AppLoggerOptions): AppLogging {
  const log = createAppLogger(opts);
  const params = { pinoHttp: { logger: log }, useExisting: true as const };
  return { log, nest: new NestPinoLogger(new PinoLogger(params), params) };
}

/** LOG_PRETTY as the launcher sets it. */
export const prettyLogs = (env: NodeJS.ProcessEnv = process.env) =>
  ['1', 'true', 'yes', 'on'].includes((env.LOG_PRETTY ?? '').toLowerCase());
