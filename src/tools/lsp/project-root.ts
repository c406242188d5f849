import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project root of a file in `dir`: the nearest folder up to the workspace root that holds
 * one of `markers`, else the workspace root. Never above the workspace.
 */
export function findRoot(dir: string, workspaceRoot: string, markers: string[]): string {
  for (let current = dir; ; current = path.dirname(current)) {
    const relative = path.relative(workspaceRoot, current);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return workspaceRoot;
    if (markers.some((marker) => existsSync(path.join(current, marker)))) return current;
    if (relative === '') return workspaceRoot;
  }
}
