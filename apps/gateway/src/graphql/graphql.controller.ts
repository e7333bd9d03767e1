import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { json, type Request, type Response } from 'express';
import { Caller, GatewayAuthService } from '../auth/gateway-auth.service';
import { SupergraphService } from './supergraph.service';

const parseJson = json({ limit: '1mb' });

/** Reads the JSON body here rather than in a global parser, so its errors are GraphQL-shaped too. */
function readBody(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) =>
    parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())),
  );
}

/** POST /graphql: the same header and key checks as REST, then the supergraph. */
@ApiExcludeController()
@Controller('graphql')
export class GraphqlController {
  constructor(
    private readonly auth: GatewayAuthService,
    private readonly supergraph: SupergraphService,
  ) {}

  @Post()
  @HttpCode(200)
  async execute(@Req() req: Request, @Res() res: Response): Promise<void> {
    let caller: Caller;
    try {
      // The tariff is checked per subgraph when the query plan reaches it.
      caller = await this.auth.authenticate(req.headers);
      await readBody(req, res);
    } catch (err) {
      return this.supergraph.reject(req, res, err);
    }
    await this.supergraph.execute(req, res, { caller, headers: req.headers });
  }
}
