import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** A real PNG of `width`×`height` in one colour (small: it compresses to almost nothing). */
export function solidPng(width: number, height: number, colour = { r: 200, g: 40, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A real PNG of random pixels: it does not compress, so its bytes are about width × height × 3. */
export function noisePng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  // A cheap generator: random enough that PNG cannot compress it.
  let state = 0x2545f491;
  for (let index = 0; index < pixels.length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[index] = state & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** The sha256 of some bytes, in hex (an image's hash). */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
