import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, IsUUID } from 'class-validator';

/** Every message carries its tenant; the handler acts only within it. */
export class TenantScoped {
  @IsString() @IsNotEmpty() tenantId!: string;
}

export class CompanyExistsRequest extends TenantScoped {
  @IsUUID() companyId!: string;
}

export interface CompanyExistsReply {
  exists: boolean;
  name?: string;
}

export class PeopleExistRequest extends TenantScoped {
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) personIds!: string[];
  @IsOptional() @IsUUID() managerRoleId?: string;
}

export interface PeopleExistReply {
  missingPersonIds: string[];
  managerRoleExists?: boolean;
}

export class MoveTouchpointsRequest extends TenantScoped {
  @IsUUID() fromPersonId!: string;
  @IsUUID() toPersonId!: string;
  @IsOptional() @IsArray() @IsUUID('all', { each: true }) touchpointIds?: string[];
}
