import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import { AppException } from '@crm/errors';
import type { IssuedApiKey, RevokedApiKey, TariffSummary, TenantSummary } from '@crm/messaging';
import { ApiEnvelope } from '@crm/service-kit';
import { AdminTokenGuard } from './admin-token.guard';
import { AdminService } from './admin.service';
import {
  CreateTenantBody,
  IssueApiKeyBody,
  IssuedApiKeyDto,
  RevokedApiKeyDto,
  SetTariffBody,
  TariffSummaryDto,
  TenantSummaryDto,
} from './dto/admin.dto';

export const ADMIN_SECURITY = 'admin';

@ApiTags('Administration')
@ApiBearerAuth(ADMIN_SECURITY)
@ApiResponse({ status: 401, description: 'Missing or wrong administrator token' })
@UseGuards(AdminTokenGuard)
@Controller('v1/admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('tenants')
  @HttpCode(201)
  @ApiOperation({ summary: 'A1 Create a tenant' })
  @ApiEnvelope(TenantSummaryDto, 201)
  @ApiResponse({ status: 409, description: 'A tenant with this id exists' })
  createTenant(@Body() body: CreateTenantBody): Promise<TenantSummary> {
    return this.admin.createTenant(body);
  }

  @Post('tenants/:id/api-keys')
  @HttpCode(201)
  @ApiOperation({
    summary: 'A2 Issue an API key (the key is returned once, stored hashed)',
    description:
      'scopes limit what the key may do per module (`<module>:read`, `<module>:write`; write ' +
      'includes read): a call outside them is a 403 naming the missing scope. Without scopes ' +
      'the key may do everything. After expiresAt the key is refused with a 401 saying when it ' +
      'expired.',
  })
  @ApiEnvelope(IssuedApiKeyDto, 201)
  @ApiResponse({
    status: 400,
    description: 'Invalid body: an unknown or repeated scope (named by index), expiresAt not ahead',
  })
  @ApiResponse({ status: 404, description: 'Unknown tenant' })
  issueApiKey(@Param('id') tenantId: string, @Body() body: IssueApiKeyBody): Promise<IssuedApiKey> {
    return this.admin.issueApiKey(tenantId, body);
  }

  @Delete('api-keys/:keyId')
  @ApiOperation({ summary: 'A3 Revoke an API key; it stops working within seconds' })
  @ApiEnvelope(RevokedApiKeyDto)
  @ApiResponse({ status: 404, description: 'Unknown key' })
  revokeApiKey(@Param('keyId') keyId: string): Promise<RevokedApiKey> {
    if (!isUUID(keyId)) throw AppException.invalidField('keyId', 'isUuid');
    return this.admin.revokeApiKey(keyId);
  }

  @Get('tariffs')
  @ApiOperation({ summary: 'A4 The tariffs with modules and functions' })
  @ApiEnvelope(TariffSummaryDto, 200, true)
  listTariffs(): Promise<TariffSummary[]> {
    return this.admin.listTariffs();
  }

  @Put('tenants/:id/tariff')
  @ApiOperation({ summary: 'A5 Put a tenant on a tariff' })
  @ApiEnvelope(TenantSummaryDto)
  @ApiResponse({ status: 404, description: 'Unknown tenant or tariff' })
  setTariff(@Param('id') tenantId: string, @Body() body: SetTariffBody): Promise<TenantSummary> {
    return this.admin.setTenantTariff(tenantId, body.tariffId);
  }
}
