import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  ImageIntakeError,
  MAX_IMAGE_EDGE_PX,
  MAX_IMAGE_INPUT_BYTES,
  MAX_IMAGE_STORED_BYTES,
  takeImage,
} from '../../src/util/image-intake.js';
import { noisePng, sha256, solidPng } from '../helpers/images.js';

async function refusal(input: Uint8Array): Promise<ImageIntakeError> {
  const error = await takeImage(input).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImageIntakeError);
  return error as ImageIntakeError;
}

describe('takeImage', () => {
  it('keeps a small image as it is: its type from the bytes, its size and the sha256 of its bytes', async () => {
    const png = await solidPng(64, 48);
    const taken = await takeImage(png);
    expect(taken).toMatchObject({ media_type: 'image/png', width: 64, height: 48, hash: sha256(png) });
    expect(Buffer.compare(taken.bytes, png)).toBe(0);
    expect(taken.scaledFrom).toBeUndefined();
    const jpeg = await sharp(png).jpeg().toBuffer();
    expect((await takeImage(jpeg)).media_type).toBe('image/jpeg');
    const webp = await sharp(png).webp().toBuffer();
    expect((await takeImage(webp)).media_type).toBe('image/webp');
    const gif = await sharp(png).gif().toBuffer();
    expect((await takeImage(gif)).media_type).toBe('image/gif');
  });

  it('refuses other types, naming what they are', async () => {
    const text = await refusal(Buffer.from('not an image at all\n'));
    expect(text.code).toBe('unsupported_type');
    expect(text.message).toMatch(/it is text/);
    expect((await refusal(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'))).message).toMatch(/PDF document/);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    const refusedSvg = await refusal(svg);
    expect(refusedSvg.code).toBe('unsupported_type');
    expect(refusedSvg.message).toMatch(/^SVG images are not supported: use PNG, JPEG, GIF or WebP/);
    const tiff = await sharp(await solidPng(8, 8))
      .tiff()
      .toBuffer();
    expect((await refusal(tiff)).message).toMatch(/^TIFF images are not supported/);
    expect((await refusal(new Uint8Array(0))).code).toBe('unreadable');
  });

  it('refuses an input past 20 MB with its size and the limit', async () => {
    const big = Buffer.alloc(MAX_IMAGE_INPUT_BYTES + 1024 * 1024);
    (await solidPng(8, 8)).copy(big);
    const error = await refusal(big);
    expect(error.code).toBe('too_large');
    expect(error.message).toBe('The image is 21.0 MB; the limit is 20.0 MB.');
  });

  it('scales a large image (about 17 MB, 2600×2200) down to 2000 px and 5 MB', async () => {
    const png = await noisePng(2600, 2200);
    expect(png.byteLength).toBeGreaterThan(15 * 1024 * 1024);
    const taken = await takeImage(png);
    expect(Math.max(taken.width, taken.height)).toBeLessThanOrEqual(MAX_IMAGE_EDGE_PX);
    expect(taken.bytes.byteLength).toBeLessThanOrEqual(MAX_IMAGE_STORED_BYTES);
    expect(taken.scaledFrom).toEqual({ width: 2600, height: 2200, bytes: png.byteLength });
    expect(taken.hash).toBe(sha256(taken.bytes));
    const metadata = await sharp(taken.bytes).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual({
      width: taken.width,
      height: taken.height,
    });
    expect(`image/${metadata.format}`).toBe(taken.media_type);
  });

  it('scales an image past 2000 px that is small in bytes, keeping its format', async () => {
    const png = await solidPng(4000, 1000);
    const taken = await takeImage(png);
    expect(taken).toMatchObject({ media_type: 'image/png', width: 2000, height: 500 });
  });
});
