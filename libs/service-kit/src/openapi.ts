import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { REQUIRED_HEADERS } from '@crm/request-context';

export const OPENAPI_PATH = 'v1/crm/openapi.json';

/** The service's OpenAPI description, with the common headers declared on every operation. */
export function buildOpenApi(
  app: INestApplication,
  title: string,
  version = '1.0.0',
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(title)
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key of the tenant' });
  for (const name of REQUIRED_HEADERS) {
    builder.addGlobalParameters({ in: 'header', name, required: true, schema: { type: 'string' } });
  }
  builder.addGlobalParameters(
    { in: 'header', name: 'X-Integration-Contact', required: false, schema: { type: 'string' } },
    {
      in: 'header',
      name: 'Accept-Language',
      required: false,
      schema: { type: 'string', example: 'de' },
    },
  );
  const doc = SwaggerModule.createDocument(app, builder.addSecurityRequirements('bearer').build());
  return doc;
}
