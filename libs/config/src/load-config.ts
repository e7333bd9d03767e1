import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Describes each problem with the raw text of the variable (conversion may have mangled it). */
function describe(errors: ValidationError[], raw: Record<string, string>): string[] {
  return errors.flatMap((e) => {
    const rules = Object.values(e.constraints ?? {}).map((m) => m.replace(/^\S+\s/, ''));
    const value = raw[e.property];
    const shown = value === undefined ? 'is not set' : `is ${JSON.stringify(value)}`;
    return [`environment variable ${e.property} ${shown}: ${rules.join('; ')}`];
  });
}

/**
 * Reads and validates the environment once, at start, into a typed object.
 * Unknown variables are ignored; a bad value throws a ConfigError naming the variable.
 */
export function loadConfig<T extends object>(
  schema: new () => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const plain: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') plain[k] = v;
  const config = plainToInstance(schema, plain, {
    enableImplicitConversion: true,
    exposeDefaultValues: true,
  });
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length) throw new ConfigError(describe(errors, plain));
  return config;
}

/** For main.ts: prints the problem and stops the process instead of starting half-configured. */
export function loadConfigOrExit<T extends object>(schema: new () => T): T {
  try {
    return loadConfig(schema);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
