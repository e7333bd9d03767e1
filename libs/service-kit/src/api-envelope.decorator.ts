import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, SchemaObject } from '@nestjs/swagger';

/**
 * Documents an answer as the envelope around `model` (an array of it with `isArray`).
 * `metaData` adds properties a list puts beside totalResults (see `paged(items, total, extras)`).
 */
export function ApiEnvelope(
  model: Type<unknown>,
  status = 200,
  isArray = false,
  metaData: Record<string, SchemaObject> = {},
) {
  const data = isArray
    ? { type: 'array', items: { $ref: getSchemaPath(model) } }
    : { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      schema: {
        type: 'object',
        required: ['data', 'message', 'metaData', 'statusCode'],
        properties: {
          data,
          message: { type: 'string', nullable: true },
          metaData: {
            type: 'object',
            properties: {
              totalResults: { type: 'integer', format: 'int32' },
              responseTimeStamp: { type: 'string', format: 'date-time' },
              ...metaData,
            },
          },
          statusCode: { type: 'integer', format: 'int32', example: status },
        },
      },
    }),
    ApiResponse({
      status: 400,
      description: 'Invalid input: envelope with data null and errors [{ field, rule, message }]',
    }),
  );
}
