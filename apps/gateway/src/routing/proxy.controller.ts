import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppException, ErrorCode } from '@crm/errors';
import { readRequestContext } from '@crm/request-context';
import { GatewayAuthService } from '../auth/gateway-auth.service';
import { GATEWAY_CONFIG, GatewayConfig, serviceUrl } from '../config';
import { ProxyService } from './proxy.service';
import { resolveRestRoute } from './services';

/** Every /v1/crm/** call: checked here, then streamed to the service owning the first segment. */
@ApiExcludeController()
@Controller('v1/crm')
export class ProxyController {
  constructor(
    private readonly auth: GatewayAuthService,
    private readonly proxy: ProxyService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @All('*path')
  async forward(@Req() req: Request, @Res() res: Response): Promise<void> {
    // Headers first (400), then the route (404), then the key and the tariff (401/403).
    readRequestContext(req.headers);
    const route = resolveRestRoute(req.originalUrl);
    if (!route) {
      throw new AppException(ErrorCode.NOT_FOUND, 'errors.notFound.route', {
        method: req.method,
        path: req.originalUrl.split('?')[0],
      });
    }
    const caller = await this.auth.authenticate(req.headers, route);
    await this.proxy.forward(
      req,
      res,
      { service: route.service, baseUrl: serviceUrl(this.config, route.service) },
      { callerId: caller.keyId, internalToken: this.config.INTERNAL_TOKEN },
    );
  }
}
