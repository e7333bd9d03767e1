import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** Modules a tariff can hold; the gateway maps each REST path and GraphQL field to one. */
export const MODULES = ['crm', 'events', 'bookings', 'tenant-info'] as const;
export type ModuleName = (typeof MODULES)[number];

export class VerifyApiKeyRequest {
  /** SHA-256 (hex) of the presented key: the key itself never travels. */
  @IsString()
  @Matches(/^[0-9a-f]{64}$/)
  keyHash!: string;
}

export interface VerifyApiKeyReply {
  valid: boolean;
  keyId?: string;
  tenantId?: string;
  modules?: ModuleName[];
  /**
   * What the key may do (`crm:read`, `crm:write`, ...). Absent only in the answer of a
   * tenant-info that predates scopes, whose keys could all do everything.
   */
  scopes?: string[];
  /**
   * ISO 8601 instant after which the key is refused (null: never). Sent with valid answers so the
   * gateway checks it on every request, cached or not, and with the `valid: false` answer of a
   * key that has expired, so the caller learns that rather than "unknown".
   */
  expiresAt?: string | null;
}

export class TenantContactInput {
  @IsOptional() @IsString() @MaxLength(200) companyName?: string;
  @IsOptional() @IsString() @MaxLength(200) contactPerson?: string;
  @IsOptional() @IsEmail() @MaxLength(320) email?: string;
  @IsOptional() @IsString() @MaxLength(50) phone?: string;
  @IsOptional() @IsString() @MaxLength(200) street?: string;
  @IsOptional() @IsString() @MaxLength(20) zip?: string;
  @IsOptional() @IsString() @MaxLength(200) city?: string;
  @IsOptional() @IsString() @MaxLength(100) country?: string;
  @IsOptional() @IsUrl() @MaxLength(500) website?: string;
}

export class CreateTenantRequest {
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
    message: 'id must be 1-64 letters, digits, - or _',
  })
  id!: string;

  @IsString() @IsNotEmpty() @MaxLength(200) name!: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TenantContactInput)
  contact?: TenantContactInput;

  /** Tariff to start on; the default tariff when absent. */
  @IsOptional() @IsString() tariffId?: string;
}

export interface TenantSummary {
  id: string;
  name: string;
  contact: TenantContactInput;
  tariffId: string | null;
  dateCreated: string;
}

export class IssueApiKeyRequest {
  @IsString() @IsNotEmpty() tenantId!: string;
  @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  /** Optional fixed key (dev launcher's DEMO_API_KEY); otherwise one is generated. */
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9_-]{24,200}$/) key?: string;
  /**
   * What the key may do, 1 or more of API_KEY_SCOPES without repeats (issueApiKeyProblems names
   * an unknown or repeated one by its index); every scope when absent.
   */
  @IsOptional() @IsArray() @ArrayMinSize(1) @IsString({ each: true }) scopes?: string[];
  /** When the key stops working (ISO 8601 instant with its offset, in the future); never when absent. */
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  @Matches(/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i)
  expiresAt?: string;
}

export interface IssuedApiKey {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  /** The key in clear: returned once, never stored. */
  key: string;
  scopes: string[];
  /** ISO 8601 instant; null: the key never expires. */
  expiresAt: string | null;
  dateCreated: string;
}

export class RevokeApiKeyRequest {
  @IsUUID() keyId!: string;
}

export interface RevokedApiKey {
  id: string;
  tenantId: string;
  revokedAt: string;
}

export class SetTenantTariffRequest {
  @IsString() @IsNotEmpty() tenantId!: string;
  @IsString() @IsNotEmpty() tariffId!: string;
}

export interface TariffSummary {
  id: string;
  name: string;
  description: string | null;
  modules: { module: string; name: string; functions: string[] }[];
}

export interface AccessChangedEvent {
  tenantId: string;
  keyId?: string;
}
