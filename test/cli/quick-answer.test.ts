import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { quickAnswer } from '../../src/cli/quick-answer.js';

describe('quickAnswer', () => {
  let folder: string | undefined;
  afterEach(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it('leaves anything but a lone --help or --version to the whole CLI', () => {
    const layout = new URL('file:///nowhere/help-layout.json');
    for (const args of [
      [],
      ['run', 'x'],
      ['--help', 'tasks'],
      ['tasks', '--help'],
      ['--json', '--version'],
      ['help'],
    ]) {
      expect(quickAnswer(['node', 'taskweave', ...args], layout), args.join(' ')).toBe(false);
    }
  });

  it('leaves --help to the whole CLI when the layout is missing or not a layout', async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-quick-'));
    const missing = pathToFileURL(path.join(folder, 'help-layout.json'));
    expect(quickAnswer(['node', 'taskweave', '--help'], missing)).toBe(false);
    for (const text of ['{', '{"usage": 3}', 'null']) {
      await writeFile(missing, text);
      expect(quickAnswer(['node', 'taskweave', '-h'], missing), text).toBe(false);
    }
  });
});
