// A real PNG of a given size (grey, every pixel black), for requests that carry images: its header is
// what the service reads an image's size from, and its bytes are what a provider must be sent.
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A PNG `width` by `height` pixels, 8-bit greyscale. */
export function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits a sample
  header[9] = 0; // greyscale
  // Each row: its filter type (none), then a byte a pixel.
  const rows = Buffer.alloc((width + 1) * height);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The PNG as the base64 an Anthropic image block carries. */
export const pngBase64 = (width: number, height: number) => png(width, height).toString('base64');

/** The PNG as a data URL, as OpenAI's image parts carry it. */
export const pngDataUrl = (width: number, height: number) => `data:image/png;base64,${pngBase64(width, height)}`;
