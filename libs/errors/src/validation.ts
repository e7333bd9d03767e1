import { ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, ValidationError } from 'class-validator';
import { AppException, FieldProblem } from './app.exception';
import { cacheValidationMetadata } from './validation-metadata-cache';

function formatConstraint(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (value && typeof value === 'object') {
    // Enums: TypeScript adds reverse mappings for numeric members; keep the names.
    return [...new Set(Object.values(value).filter((v) => typeof v === 'string'))].join(', ');
  }
  return String(value);
}

/** The arguments given to the decorator (e.g. 200 in @MaxLength(200)), read from the metadata. */
function constraintArgs(target: object | undefined, property: string, rule: string) {
  if (!target) return {};
  const metas = getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .filter((m) => m.propertyName === property && (m.name === rule || m.type === rule));
  const constraints = metas[0]?.constraints ?? [];
  return Object.fromEntries(constraints.map((c, i) => [`constraint${i + 1}`, formatConstraint(c)]));
}

function joinPath(parent: string, property: string): string {
  if (!parent) return property;
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

/**
 * One problem per field, the most basic one: a missing name is "required", not "too long";
 * a number given for a text is "must be a text", not also "too long".
 */
const RULE_ORDER = [
  'whitelistValidation',
  'isDefined',
  'isNotEmpty',
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
  'isEnum',
  'isIn',
  'isUuid',
  'isDateString',
  'isIso8601',
];
const rank = (rule: string) => {
  const i = RULE_ORDER.indexOf(rule);
  return i < 0 ? RULE_ORDER.length : i;
};

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    const field = joinPath(parent, e.property);
    const [rule, fallback] =
      Object.entries(e.constraints ?? {}).sort(([a], [b]) => rank(a) - rank(b))[0] ?? [];
    const own: FieldProblem[] = rule
      ? [{ field, rule, fallback, args: constraintArgs(e.target, e.property, rule) }]
      : [];
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}

/**
 * The validation pipe of every service: unknown fields are refused, types converted, and every
 * problem reported with its field path and rule (translated later by the exception filter).
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => AppException.validation(flattenValidationErrors(errors)),
  });
}
