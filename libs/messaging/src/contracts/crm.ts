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
  /** Entries of crm-people's manager-roles list to confirm, all in the same request. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  managerRoleIds?: string[];
  /** The first form of the request (one role); still answered for senders not yet updated. */
  @IsOptional() @IsUUID() managerRoleId?: string;
}

export interface PeopleExistReply {
  missingPersonIds: string[];
  /** Of managerRoleIds, those that are not roles of the tenant (present when they were asked). */
  unknownManagerRoleIds?: string[];
  /** Answer to managerRoleId. */
  managerRoleExists?: boolean;
}

export class MoveTouchpointsRequest extends TenantScoped {
  @IsUUID() fromPersonId!: string;
  @IsUUID() toPersonId!: string;
  /** Only these touchpoints of fromPersonId; all of them when absent. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  touchpointIds?: string[];
}

export interface MoveTouchpointsReply {
  moved: number;
}

// Events are classes so consumers validate what they receive (@ConsumeEvent(subject, Class)).

/**
 * People created (P3, P9; one event per create or batch): webhooks `person.created`. Ids only:
 * a receiver reads what it needs with its own key, so no personal data travels in the stream.
 */
export class PeopleCreatedEvent extends TenantScoped {
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) personIds!: string[];
}

/** People removed for good (P6, P10): other services drop what refers to them. */
export class PeopleDeletedEvent extends TenantScoped {
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) personIds!: string[];
}

/** Sources merged into a target (P20): other services re-point source ids to the target. */
export class PeopleMergedEvent extends TenantScoped {
  @IsUUID() targetId!: string;
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) sourceIds!: string[];
}

/** Companies removed (C6, C7): crm-people disconnects the cards pointing at them. */
export class CompaniesDeletedEvent extends TenantScoped {
  @IsArray() @ArrayMaxSize(1000) @IsUUID('all', { each: true }) companyIds!: string[];
}
