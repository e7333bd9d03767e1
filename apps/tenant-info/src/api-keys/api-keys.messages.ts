import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  IssueApiKeyRequest,
  IssuedApiKey,
  RevokeApiKeyRequest,
  RevokedApiKey,
  Subjects,
  VerifyApiKeyReply,
  VerifyApiKeyRequest,
} from '@crm/messaging';
import { ApiKeysService } from './api-keys.service';

/** NATS commands about API keys: verify (gateway, every request), issue and revoke (operators). */
@Controller()
export class ApiKeysMessages {
  constructor(private readonly keys: ApiKeysService) {}

  @MessagePattern(Subjects.tenantInfo.verifyApiKey)
  verify(@Payload() req: VerifyApiKeyRequest): Promise<VerifyApiKeyReply> {
    return this.keys.verify(req);
  }

  @MessagePattern(Subjects.tenantInfo.issueApiKey)
  issue(@Payload() req: IssueApiKeyRequest): Promise<IssuedApiKey> {
    return this.keys.issue(req);
  }

  @MessagePattern(Subjects.tenantInfo.revokeApiKey)
  revoke(@Payload() req: RevokeApiKeyRequest): Promise<RevokedApiKey> {
    return this.keys.revoke(req);
  }
}
