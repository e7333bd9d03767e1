import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import { RawResponse } from '@crm/envelope';
import { OpenApiService } from './openapi.service';

/** GET /v1/crm/openapi.json: no headers, no key (it describes how to call the API). */
@ApiExcludeController()
@Controller('v1/crm')
export class OpenApiController {
  constructor(private readonly openapi: OpenApiService) {}

  @Get('openapi.json')
  @RawResponse()
  document(): Promise<OpenAPIObject> {
    return this.openapi.merged();
  }
}
