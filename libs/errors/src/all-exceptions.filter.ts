import { OutageLog } from '@crm/logging';
import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Injectable,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { I18nService } from 'nestjs-i18n';
import { throwError } from 'rxjs';
import { errorEnvelope } from '@crm/envelope';
import { FALLBACK_LANGUAGE, resolveLanguage } from '@crm/i18n';
import { AppException } from './app.exception';
import { isDatabaseUnavailable } from './database-unavailable';
import { codeForStatus, ErrorCode } from './error-code';
import { translateError } from './translate';

/**
 * Fastify's own request errors (body parsing, content type, body size), raised before a handler
 * runs: `code` FST_ERR_* with a 4xx `statusCode`.
 */
function fastifyRequestError(exception: unknown): AppException | undefined {
  const err = exception as { code?: unknown; statusCode?: unknown } | null;
  if (typeof err?.code !== 'string' || !err.code.startsWith('FST_')) return undefined;
  // Raised by the router before any route (see frameworkErrors in @crm/service-kit).
  if (err.code === 'FST_ERR_BAD_URL')
    return new AppException(ErrorCode.BAD_REQUEST, 'errors.badUrl');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return new AppException(ErrorCode.BAD_REQUEST, 'errors.uriTooLong');
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status === 413)
    return new AppException(ErrorCode.PAYLOAD_TOO_LARGE, 'errors.payloadTooLarge');
  if (status === 415) {
    const type = /: (.*)$/.exec(String((exception as Error).message))?.[1] ?? '';
    return new AppException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'errors.unsupportedMediaType', {
      type,
    });
  }
  if (status === 400) {
    return /JSON|prototype|constructor/i.test(String((exception as Error).message))
      ? new AppException(ErrorCode.BAD_REQUEST, 'errors.badJson')
      : new AppException(ErrorCode.BAD_REQUEST, 'errors.badRequest');
  }
  return undefined;
}

/** Maps anything thrown (ours, Nest's, body-parser's, unexpected) onto an AppException. */
/**
 * An outage of the database answers many calls with 503: logged as it starts and while it lasts
 * (OutageLog), through the logger of the call that saw it.
 */
let outageLogger: Logger | undefined;
const databaseOutages = new OutageLog({
  warn: (m) => outageLogger?.warn(m),
  log: (m) => outageLogger?.log(m),
});

export function toAppException(exception: unknown, logger?: Logger): AppException {
  if (exception instanceof AppException) return exception;
  if (AppException.isRpcPayload(exception)) return AppException.fromRpc(exception);
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = codeForStatus(status);
    const cause = exception.getResponse() as { message?: unknown } | string;
    const raw = typeof cause === 'string' ? cause : String(cause?.message ?? exception.message);
    if (status === 404 && /^Cannot (\w+) (.*)$/.test(raw)) {
      const [, method, path] = /^Cannot (\w+) (.*)$/.exec(raw)!;
      return new AppException(code, 'errors.notFound.route', { method, path });
    }
    if (status === 413) return new AppException(code, 'errors.payloadTooLarge');
    if (status === 415) return new AppException(code, 'errors.unsupportedMediaType', { type: '' });
    if (status === 400 && /JSON/i.test(raw)) return new AppException(code, 'errors.badJson');
    if (status === 400 && /not a valid url/i.test(raw))
      return new AppException(code, 'errors.badUrl');
    if (status === 400) return new AppException(code, 'errors.badRequest');
    if (status === 429) return new AppException(code, 'errors.tooManyRequests');
    // Nest's and Fastify's own words are English only (and may quote the request): every other
    // status gets a translated text naming it.
    return new AppException(code, 'errors.httpStatus', { status });
  }
  const fastify = fastifyRequestError(exception);
  if (fastify) return fastify;
  const bodyParser = exception as { type?: string; status?: number };
  if (bodyParser?.type === 'entity.too.large')
    return new AppException(ErrorCode.PAYLOAD_TOO_LARGE, 'errors.payloadTooLarge');
  if (bodyParser?.type === 'entity.parse.failed')
    return new AppException(ErrorCode.BAD_REQUEST, 'errors.badJson');
  if (isDatabaseUnavailable(exception)) {
    // Not a bug and not the caller's fault: no stack, and one line per outage, not per call.
    // Prisma's message starts with a code frame: its last line says what happened.
    const said = String((exception as Error).message)
      .trim()
      .split('\n')
      .pop();
    outageLogger = logger;
    databaseOutages.failed('database', said ?? 'unavailable');
    return new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.databaseUnavailable');
  }
  logger?.error(exception instanceof Error ? (exception.stack ?? exception.message) : exception);
  return new AppException(ErrorCode.INTERNAL, 'errors.internal');
}

/** The error envelope's status and body for `exception`, in the language the headers ask for. */
function errorAnswer(
  i18n: I18nService,
  headers: IncomingHttpHeaders | undefined,
  exception: unknown,
  logger?: Logger,
): { status: number; body: ReturnType<typeof errorEnvelope> } {
  let err = toAppException(exception, logger);
  if (err.messageKey === 'errors.unsupportedMediaType' && !err.args.type) {
    // Fastify's error does not say which type: the request does.
    const type = String(headers?.['content-type'] ?? '').slice(0, 100);
    err = new AppException(err.code, err.messageKey, { type });
  }
  const lang = headers
    ? resolveLanguage(headers['accept-language'] as string | undefined)
    : FALLBACK_LANGUAGE;
  const { message, errors } = translateError(i18n, err, lang);
  return { status: err.status, body: errorEnvelope(err.status, message, errors) };
}

const ERROR_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Answers an HTTP request with the error envelope, translated into the caller's language. Used by
 * the filter below and by routes served outside Nest's router (the gateway's proxy).
 */
export function sendErrorEnvelope(
  i18n: I18nService,
  req: FastifyRequest | undefined,
  res: FastifyReply,
  exception: unknown,
  logger?: Logger,
): void {
  const { status, body } = errorAnswer(i18n, req?.headers, exception, logger);
  if (res.sent || res.raw.headersSent) {
    // The answer had begun: nothing valid can be sent any more.
    if (!res.raw.writableEnded) res.raw.destroy();
    return;
  }
  void res.status(status).type(ERROR_CONTENT_TYPE).send(body);
}

/** sendErrorEnvelope for a plain node:http response (the gateway's REST proxy, no Fastify reply). */
export function sendRawErrorEnvelope(
  i18n: I18nService,
  req: IncomingMessage,
  res: ServerResponse,
  exception: unknown,
): void {
  const { status, body } = errorAnswer(i18n, req.headers, exception);
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return;
  }
  const bytes = Buffer.from(JSON.stringify(body));
  res.statusCode = status;
  res.setHeader('content-type', ERROR_CONTENT_TYPE);
  res.setHeader('content-length', bytes.length);
  res.end(bytes);
}

/**
 * One filter for every transport: REST gets the envelope, GraphQL an error with
 * extensions.code / extensions.statusCode, NATS the serialized AppException.
 */
@Catch()
@Injectable()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(private readonly i18n: I18nService) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const err = toAppException(exception, this.logger);
    const type = host.getType<'http' | 'graphql' | 'rpc'>();

    if (type === 'rpc') return throwError(() => err.toRpc());

    if (type === 'graphql') {
      const req = host.getArgByIndex<{ req?: FastifyRequest }>(2)?.req;
      const lang = resolveLanguage(req?.headers?.['accept-language'] as string | undefined);
      const { message, errors } = translateError(this.i18n, err, lang);
      return new GraphQLError(message, {
        extensions: {
          code: err.code,
          statusCode: err.status,
          ...(errors.length ? { errors } : {}),
        },
      });
    }

    const ctx = host.switchToHttp();
    sendErrorEnvelope(this.i18n, ctx.getRequest(), ctx.getResponse(), err);
  }
}
