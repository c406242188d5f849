import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Oracle } from '../../src/eval/oracle.js';

/**
 * Applies an oracle's writes and removes to a workspace directly, without a model: the
 * known-good end state a checker must pass. Its commands and questions are left out.
 */
export async function applyOracle(workspace: string, oracle: Oracle): Promise<void> {
  for (const part of oracle.parts) {
    for (const action of part.actions) {
      if ('write' in action) {
        const target = path.join(workspace, action.write);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, oracle.files.get(action.write) ?? '');
      } else if ('remove' in action) {
        await rm(path.join(workspace, action.remove), { force: true });
      }
    }
  }
}
