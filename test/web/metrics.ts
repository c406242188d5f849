import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { SCREENSHOTS } from './serve-harness.js';

/** The built app's files and their gzip sizes (bytes). */
export function bundleSizes(): { file: string; bytes: number; gzip: number }[] {
  const assets = path.resolve('dist/web/assets');
  return readdirSync(assets).map((file) => {
    const content = readFileSync(path.join(assets, file));
    return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  });
}

/** Writes measurements to test-results/web/<name>.json and prints them. */
export async function report(name: string, values: unknown): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await writeFile(path.join(SCREENSHOTS, `${name}.json`), `${JSON.stringify(values, null, 2)}\n`);
  console.log(`${name}: ${JSON.stringify(values)}`);
}
