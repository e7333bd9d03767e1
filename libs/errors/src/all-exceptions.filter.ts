import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Injectable,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { GraphQLError } from 'graphql';
import { I18nService } from 'nestjs-i18n';
import { throwError } from 'rxjs';
import { errorEnvelope } from '@crm/envelope';
import { FALLBACK_LANGUAGE, resolveLanguage } from '@crm/i18n';
import { AppException } from './app.exception';
import { codeForStatus, ErrorCode } from './error-code';
import { translateError } from './translate';

/** Maps anything thrown (ours, Nest's, body-parser's, unexpected) onto an AppException. */
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
    if (status === 400 && /JSON/i.test(raw)) return new AppException(code, 'errors.badJson');
    if (status === 429) return new AppException(code, 'errors.tooManyRequests');
    // Keep Nest's own words where we have no key for them.
    return new AppException(code, raw);
  }
  const bodyParser = exception as { type?: string; status?: number };
  if (bodyParser?.type === 'entity.too.large')
    return new AppException(ErrorCode.PAYLOAD_TOO_LARGE, 'errors.payloadTooLarge');
  if (bodyParser?.type === 'entity.parse.failed')
    return new AppException(ErrorCode.BAD_REQUEST, 'errors.badJson');
  logger?.error(exception instanceof Error ? (exception.stack ?? exception.message) : exception);
  return new AppException(ErrorCode.INTERNAL, 'errors.internal');
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
      const req = host.getArgByIndex<{ req?: Request }>(2)?.req;
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
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const lang = req?.headers
      ? resolveLanguage(req.headers['accept-language'] as string | undefined)
      : FALLBACK_LANGUAGE;
    const { message, errors } = translateError(this.i18n, err, lang);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(err.status).json(errorEnvelope(err.status, message, errors));
  }
}
