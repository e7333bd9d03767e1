import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

const toBool = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? ['1', 'true', 'yes', 'on'].includes(value.toLowerCase()) : value;

/**
 * Settings every service reads. Services extend it with their own. Every field has an explicit
 * type: the conversion from env strings reads it from the emitted metadata.
 */
export class ServiceConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT!: number;

  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL!: string;

  @IsString()
  @Matches(/^(nats|tls|ws|wss):\/\//, {
    message: 'must be a nats:// URL (comma-separated for a cluster)',
  })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /** How long a NATS request may take before the caller answers 503. */
  @IsInt()
  @Min(50)
  @Max(60000)
  NATS_REQUEST_TIMEOUT_MS: number = 3000;

  /** When set, only requests carrying this token in X-Internal-Token (the gateway's) are served. */
  @IsOptional()
  @IsString()
  INTERNAL_TOKEN?: string;

  @Transform(toBool)
  @IsBoolean()
  LOG_REQUESTS: boolean = false;

  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_POOL_SIZE: number = 10;
}
