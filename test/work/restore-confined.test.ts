import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointHarness, workspaceFolder } from './work-fixture.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('a restore through a folder swapped for a link', () => {
  it.each([{ force: true }, { force: false }])(
    'redo (force: $force) refuses before it creates any folder outside the workspace',
    async ({ force }) => {
      const root = workspaceFolder('plain');
      const outside = workspaceFolder('plain');
      folders.push(root, outside);
      const harness = await checkpointHarness(root);
      const run = await harness.run();
      await run.step({ changes: 'files', args: { path: 'deep/dir/out.txt' }, step: 1 }, () => {
        mkdirSync(path.join(root, 'deep', 'dir'), { recursive: true });
        writeFileSync(path.join(root, 'deep', 'dir', 'out.txt'), 'out\n');
      });
      await run.recorder.close();
      expect(run.errors).toEqual([]);
      await harness.book.undo(harness.session.id);
      expect(existsSync(path.join(root, 'deep'))).toBe(false);
      // The folder the step wrote into comes back as a link to a folder outside the workspace.
      symlinkSync(outside, path.join(root, 'deep'));
      await expect(harness.book.redo(harness.session.id, { force })).rejects.toThrow(/outside the workspace/);
      expect(readdirSync(outside)).toEqual([]);
      await harness.store.close();
    },
  );
});
