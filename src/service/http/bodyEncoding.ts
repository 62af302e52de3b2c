// Request bodies sent compressed (`Content-Encoding: gzip`, as some HTTP clients and proxies send a
// large conversation): read through Node's own decompressors, so that the route's body limit counts
// the decoded bytes (a small body that inflates to gigabytes is refused at the limit, as Fastify reads
// it). An encoding the service cannot read is refused in words, with the ones it can (RFC 7694's
// Accept-Encoding on a 415), instead of its bytes being read as JSON.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { Problem } from '../problem';

/** Each encoding's decompressor; zstd where this Node has it (22.15 and later). */
const DECODERS: Record<string, () => Transform & zlib.Zlib> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  // HTTP's deflate is zlib's format; a raw deflate stream (some clients send one) is refused as corrupt.
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
  ...(typeof zlib.createZstdDecompress === 'function' ? { zstd: () => zlib.createZstdDecompress() } : {}),
};

const READ = Object.keys(DECODERS).filter((name) => name !== 'x-gzip');

/**
 * The body as the route reads it: the payload itself when it is not encoded, else its decoded stream
 * (which tells Fastify how many encoded bytes it has read, for the Content-Length check). A Problem
 * when the encoding is not one the service reads.
 */
export function decodedBody(headers: IncomingHttpHeaders, payload: Readable): Readable | Problem {
  const said = headers['content-encoding']?.trim().toLowerCase();
  if (!said || said === 'identity' || !hasBody(headers)) return payload;
  const decoder = DECODERS[said]?.();
  if (!decoder)
    return new Problem(
      415,
      `The request body is encoded as "${said.slice(0, 40)}", which this service cannot read: send it as it is, or encoded as ${READ.join(', ')}.`,
      { 'accept-encoding': READ.join(', ') },
    );
  Object.defineProperty(decoder, 'receivedEncodedLength', { get: () => decoder.bytesWritten });
  decoder.once('error', (error: Error & { statusCode?: number }) => {
    error.statusCode = 400;
    error.message = `The request body could not be decoded as ${said} (${error.message}).`;
  });
  payload.once('error', (error) => decoder.destroy(error));
  return payload.pipe(decoder);
}

/** Whether the request carries a body at all (a GET may say an encoding and send nothing). */
const hasBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0;
