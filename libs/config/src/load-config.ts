import { plainToInstance } from 'class-transformer';
import { readFileSync } from 'node:fs';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';

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
    // a secret's value never reaches a log, even a wrong one
    const shown =
      value === undefined
        ? 'is not set'
        : e.constraints?.secret
          ? `is set (${value.length} characters, not shown)`
          : `is ${JSON.stringify(value)}`;
    return [`environment variable ${e.property} ${shown}: ${rules.join('; ')}`];
  });
}

/**
 * `<NAME>_FILE` for every variable of the schema: the value is read from that file when NAME
 * itself is unset (Docker and Kubernetes secrets are files; a value in the environment shows in
 * `docker inspect` and every child process). A trailing newline is dropped.
 */
function readFileVariables(schema: new () => object, plain: Record<string, string>): string[] {
  const problems: string[] = [];
  const names = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(schema, '', true, false)
      .map((m) => m.propertyName),
  );
  for (const name of names) {
    const file = plain[`${name}_FILE`];
    if (file === undefined || plain[name] !== undefined) continue;
    try {
      plain[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      problems.push(
        `environment variable ${name}_FILE is ${JSON.stringify(file)}: the file cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
  }
  return problems;
}

/**
 * Reads and validates the environment once, at start, into a typed object (NAME_FILE names a
 * file holding NAME). Unknown variables are ignored; a bad value throws a ConfigError naming the
 * variable.
 */
export function loadConfig<T extends object>(
  schema: new () => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const plain: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') plain[k] = v;
  const fileProblems = readFileVariables(schema, plain);
  if (fileProblems.length) throw new ConfigError(fileProblems);
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
