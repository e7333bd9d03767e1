import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { ServiceConfig } from '@crm/config';

export class TenantInfoConfig extends ServiceConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3005;

  /** Tariff a new tenant starts on when the request names none (seeded by a migration). */
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,63}$/, { message: 'must be a tariff id such as "complete"' })
  DEFAULT_TARIFF_ID = 'complete';
}
