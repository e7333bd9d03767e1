import { ValidateBy, ValidationArguments } from 'class-validator';

/** Shortest INTERNAL_TOKEN accepted in production (the launcher generates 32 characters). */
export const INTERNAL_TOKEN_MIN = 16;

const isProduction = (args: ValidationArguments) =>
  (args.object as { NODE_ENV?: string }).NODE_ENV === 'production';

/**
 * The shared secret the gateway sends to the services in X-Internal-Token. Optional in development
 * and tests (a service without it serves anyone who reaches its port); with NODE_ENV=production the
 * process refuses to start without one of at least INTERNAL_TOKEN_MIN characters, so a deployment
 * cannot leave the services open by forgetting it.
 */
export function InternalTokenRule(): PropertyDecorator {
  return ValidateBy({
    name: 'internalToken',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const production = args ? isProduction(args) : false;
        if (value === undefined) return !production;
        if (typeof value !== 'string') return false;
        return !production || value.length >= INTERNAL_TOKEN_MIN;
      },
      // The first word (the property) is replaced by loadConfig's "environment variable X ...".
      defaultMessage: (args?: ValidationArguments) =>
        args && isProduction(args)
          ? `$property must be set to a secret of at least ${INTERNAL_TOKEN_MIN} characters when NODE_ENV=production (the gateway sends it to every service in X-Internal-Token; services refuse calls without it)`
          : '$property must be a string',
    },
  });
}
