import { ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, ValidationError } from 'class-validator';
import { AppException, FieldProblem } from './app.exception';

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

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    const field = joinPath(parent, e.property);
    const own = Object.entries(e.constraints ?? {}).map(([rule, fallback]) => ({
      field,
      rule,
      fallback,
      args: constraintArgs(e.target, e.property, rule),
    }));
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}

/**
 * The validation pipe of every service: unknown fields are refused, types converted, and every
 * problem reported with its field path and rule (translated later by the exception filter).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    // one problem per field: "firstname must be a text" says it all, no need for its length too
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => AppException.validation(flattenValidationErrors(errors)),
  });
}
