// GET /openapi.json: an OpenAPI 3.1 document generated from the route table's zod schemas.
import { z } from 'zod';
import { ErrorBody } from '../../api/schemas';
import type { RouteSpec } from './routes';

type JsonSchema = Record<string, unknown>;

/** Definitions that recursive schemas (a model's `parent`) need, hoisted into components. */
const shared: Record<string, JsonSchema> = {};
let counter = 0;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  const renames = new Map(Object.keys(defs).map((name) => [`#/$defs/${name}`, `#/components/schemas/Def${++counter}`]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' ? (renames.get(v) ?? v) : rewrite(v),
        ]),
      );
    }
    return value;
  };
  for (const [name, def] of Object.entries(defs))
    shared[renames.get(`#/$defs/${name}`)!.split('/').pop()!] = rewrite(def) as JsonSchema;
  return rewrite(json) as JsonSchema;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

export function openApiDocument(routes: RouteSpec[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([a-z_]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      tags: [route.extra ? 'conventions' : 'interface'],
      parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
      ...(route.body
        ? {
            requestBody: {
              required: !route.bodyOptional,
              content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        200: {
          description: 'Success',
          content: { 'application/json': { schema: schemaOf(route.response, 'output') } },
        },
        401: errorResponse('Missing or unknown token'),
        404: errorResponse('Unknown resource, or one of another organization'),
        422: errorResponse('Validation failure'),
        429: errorResponse('Rate limit exceeded'),
      },
      security: [{ bearer: [] }],
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'LLM Spaces local service', version },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: schemaOf(ErrorBody, 'output'), ...shared },
    },
  };
}
