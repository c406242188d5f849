import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PTY_COLUMNS, PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function workspaceWithConfig(text: string): Promise<string> {
  const workspace = await tempWorkspaceRoot('taskweave-config-errors-');
  await mkdir(path.join(workspace, '.taskweave'));
  await writeFile(path.join(workspace, '.taskweave', 'config.json'), text);
  return workspace;
}

describe('config errors on an 80×24 terminal', () => {
  it('a mistyped key asks "did you mean", invalid JSON names line and column; lines fit, exit 2', async () => {
    const typo = await workspaceWithConfig('{ "maxStep": 3 }\n');
    const first = await PtyRun.run(['run', 'go', '-C', typo, '--model', 'script:none.json'], {
      env: { NO_COLOR: '1' },
    });
    expect(first.code).toBe(2);
    expect(first.text.replace(/\s+/g, ' ')).toContain(
      'Unrecognized key: "maxStep" (did you mean `maxSteps`?)',
    );
    expect(first.lines.every((line) => [...line].length <= PTY_COLUMNS)).toBe(true);

    const broken = await workspaceWithConfig('{\n  "maxSteps": 3\n  "model": "x:y"\n}\n');
    const second = await PtyRun.run(['run', 'go', '-C', broken, '--model', 'script:none.json'], {
      env: { NO_COLOR: '1' },
    });
    expect(second.code).toBe(2);
    expect(second.text.replace(/\s+/g, ' ')).toMatch(/is not valid JSON: .* at line 3, column 3/);
  });
});
