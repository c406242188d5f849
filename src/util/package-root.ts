import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The folder of taskweave's own package.json: found by walking up from this file, so that it is
 * the same from `src/` (tests), `dist/` (the compiled files) and `dist/bundle/` (the bundled CLI).
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(folder, 'package.json');
    if (existsSync(manifest) && isTaskweave(manifest)) {
      root = folder;
      return folder;
    }
    const parent = path.dirname(folder);
    if (parent === folder)
      throw new Error(`taskweave's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}

function isTaskweave(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'taskweave';
  } catch {
    return false;
  }
}
