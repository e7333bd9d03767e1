import { ErrorCode, HTTP_STATUS } from './error-code';

export type MessageArgs = Record<string, string | number | boolean | null | undefined>;

/** A field problem before translation: the rule's message key is `validation.<rule>`. */
export interface FieldProblem {
  field: string;
  rule: string;
  args?: MessageArgs;
  /** A domain's own message key for the rule (default `validation.<rule>`). */
  messageKey?: string;
  /** class-validator's own English text, used when the catalogue has no entry for the rule. */
  fallback?: string;
}

/** Serialized form of an AppException, as it travels over NATS. */
export interface RpcErrorPayload {
  code: ErrorCode;
  messageKey: string;
  args?: MessageArgs;
  problems?: FieldProblem[];
}

/**
 * The one exception type of the domain: a code (-> HTTP status / GraphQL code) and a message key
 * translated at the edge in the caller's language.
 */
export class AppException extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly messageKey: string,
    readonly args: MessageArgs = {},
    readonly problems: FieldProblem[] = [],
  ) {
    super(`${code}: ${messageKey} ${JSON.stringify(args)}`);
    this.name = 'AppException';
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }

  toRpc(): RpcErrorPayload {
    return {
      code: this.code,
      messageKey: this.messageKey,
      args: this.args,
      problems: this.problems,
    };
  }

  static fromRpc(payload: RpcErrorPayload): AppException {
    return new AppException(payload.code, payload.messageKey, payload.args, payload.problems);
  }

  static isRpcPayload(value: unknown): value is RpcErrorPayload {
    return (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as RpcErrorPayload).code === 'string' &&
      (value as RpcErrorPayload).code in HTTP_STATUS &&
      typeof (value as RpcErrorPayload).messageKey === 'string'
    );
  }

  static notFound(resource: string, id: string): AppException {
    return new AppException(ErrorCode.NOT_FOUND, 'errors.notFound.resource', { resource, id });
  }

  static validation(problems: FieldProblem[]): AppException {
    return new AppException(
      ErrorCode.VALIDATION_FAILED,
      'errors.validation.failed',
      { count: problems.length },
      problems,
    );
  }

  /**
   * A 409 about one field (a body field or a path parameter): the message, and `errors` naming the
   * field and the rule with the same text, as every other 409 of the API does.
   */
  static conflictOn(
    field: string,
    rule: string,
    messageKey: string,
    args: MessageArgs = {},
  ): AppException {
    return new AppException(ErrorCode.CONFLICT, messageKey, args, [
      { field, rule, args, messageKey },
    ]);
  }

  static invalidField(field: string, rule: string, args: MessageArgs = {}): AppException {
    return AppException.validation([{ field, rule, args }]);
  }
}
