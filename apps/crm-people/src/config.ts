import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@crm/config';

export class CrmPeopleConfig extends ServiceConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  override PORT: number = 3001;
}
