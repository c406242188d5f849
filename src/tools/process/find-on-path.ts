import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The first executable file named `program` in the folders of `searchPath` (a PATH value). */
export function findOnPath(program: string, searchPath: string = process.env.PATH ?? ''): string | undefined {
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder; try the next.
    }
  }
  return undefined;
}
