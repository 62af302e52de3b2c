// How many input tokens an image counts before it is sent, by the rules the vendors publish for
// their vision models: Anthropic bills an image by its area (one token for 750 pixels, once scaled to
// fit its limits), OpenAI by the 512-pixel tiles of its scaled copy (85 tokens, and 170 for each tile
// when the detail is high). The image's size is read from its own header (`image-size`); an image by
// address, whose size is not known here, counts as the largest image the rule bills.
import { imageSize } from 'image-size';
import type { ChatMessage, ImageRule } from './request';

/** The detail OpenAI's models read an image at: `low` is one small copy, `high` (and `auto`) its tiles. */
export type ImageDetail = 'auto' | 'low' | 'high';

interface Size {
  width: number;
  height: number;
}

/** Anthropic scales an image down until its long edge is at most 1,568 pixels and it is about 1,600 tokens. */
const ANTHROPIC_LONG_EDGE = 1568;
const ANTHROPIC_PIXELS_PER_TOKEN = 750;
const ANTHROPIC_MOST_TOKENS = 1600;

/** OpenAI fits an image in 2,048 pixels square, then its short side in 768, and counts 512-pixel tiles. */
const OPENAI_SQUARE = 2048;
const OPENAI_SHORT_SIDE = 768;
const OPENAI_TILE = 512;
const OPENAI_BASE = 85;
const OPENAI_PER_TILE = 170;

/** The largest size each rule bills, for an image whose size is not known. */
const LARGEST: Record<ImageRule, Size> = {
  anthropic: { width: 1092, height: 1092 },
  openai: { width: OPENAI_SHORT_SIDE, height: OPENAI_SQUARE },
};

export function anthropicImageTokens({ width, height }: Size): number {
  const scale = Math.min(
    1,
    ANTHROPIC_LONG_EDGE / Math.max(width, height),
    Math.sqrt((ANTHROPIC_MOST_TOKENS * ANTHROPIC_PIXELS_PER_TOKEN) / (width * height)),
  );
  return Math.max(1, Math.ceil((Math.floor(width * scale) * Math.floor(height * scale)) / ANTHROPIC_PIXELS_PER_TOKEN));
}

export function openaiImageTokens({ width, height }: Size, detail: ImageDetail = 'auto'): number {
  if (detail === 'low') return OPENAI_BASE;
  const fit = Math.min(1, OPENAI_SQUARE / Math.max(width, height));
  const shortSide = Math.min(1, OPENAI_SHORT_SIDE / (Math.min(width, height) * fit));
  const scale = fit * shortSide;
  const tiles = Math.ceil((width * scale) / OPENAI_TILE) * Math.ceil((height * scale) / OPENAI_TILE);
  return OPENAI_BASE + OPENAI_PER_TILE * tiles;
}

/**
 * The size of an image given as a data URL, read from its header (the first bytes suffice for most
 * formats; a JPEG's size can follow a large EXIF block), or null when it is not an image read here.
 */
export function dataImageSize(url: string): Size | null {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0 || !url.slice(0, comma).endsWith(';base64')) return null;
  const data = url.slice(comma + 1);
  for (const chars of [8_192, 131_072, data.length]) {
    try {
      const { width, height } = imageSize(Buffer.from(data.slice(0, chars), 'base64'));
      if (width > 0 && height > 0) return { width, height };
    } catch {
      // Too short a prefix for this image's header, or not an image: the next try reads more.
    }
    if (chars >= data.length) break;
  }
  return null;
}

/** The tokens of one image part (OpenAI's `image_url`) by a vendor's rule. */
export function imageTokens(url: string, detail: ImageDetail | undefined, rule: ImageRule): number {
  const size = dataImageSize(url) ?? LARGEST[rule];
  return rule === 'anthropic' ? anthropicImageTokens(size) : openaiImageTokens(size, detail);
}

/** The tokens of every image in the messages by a vendor's rule. */
export function messageImageTokens(messages: readonly ChatMessage[], rule: ImageRule): number {
  let tokens = 0;
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content) {
      const image = part.image_url as { url?: unknown; detail?: ImageDetail } | undefined;
      if (part.type === 'image_url' && typeof image?.url === 'string')
        tokens += imageTokens(image.url, image.detail, rule);
    }
  }
  return tokens;
}
