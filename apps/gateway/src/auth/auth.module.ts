import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { AccessEventsListener } from './access-events.listener';
import { ApiKeyCache } from './api-key.cache';
import { API_KEY_CACHE, ApiKeyVerifier, KEY_VERIFIER } from './api-key.verifier';
import { GatewayAuthService } from './gateway-auth.service';

@Module({
  providers: [
    {
      provide: API_KEY_CACHE,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) =>
        new ApiKeyCache({ ttlMs: config.KEY_CACHE_TTL_MS, staleMs: config.KEY_CACHE_STALE_MS }),
    },
    ApiKeyVerifier,
    { provide: KEY_VERIFIER, useExisting: ApiKeyVerifier },
    GatewayAuthService,
    AccessEventsListener,
  ],
  exports: [GatewayAuthService, API_KEY_CACHE, AccessEventsListener],
})
export class AuthModule {}
