// Raw HTTP for tests that send what the typed client never would (bad bodies, wrong types, no token).
import { request } from 'undici';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
  text: string;
}

export async function raw(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string | Buffer;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, json, text };
}

/** The `loc` paths of a 422 answer, e.g. ["body.title"]. */
export function locs(json: unknown): string[] {
  const detail = (json as { detail?: Array<{ loc: Array<string | number> }> }).detail;
  return Array.isArray(detail) ? detail.map((d) => d.loc.join('.')) : [];
}
