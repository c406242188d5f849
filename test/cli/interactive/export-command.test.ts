import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExportArgument } from '../../../src/cli/interactive/export-command.js';
import { runSlashCommand, type SessionState } from '../../../src/cli/interactive/slash-commands.js';
import { styleFor } from '../../../src/cli/render/terminal.js';
import { sessionExportSchema } from '../../../src/export/export-schema.js';
import { openRuntime } from '../../runtime/helpers.js';

const TURNS = [
  { toolCalls: [{ name: 'write_file', args: { path: 'hello.txt', content: 'hello' } }] },
  { text: 'Wrote **hello.txt**.' },
];

/** The interactive session's state over a real runtime, with what the commands say kept. */
async function session() {
  const runtime = await openRuntime(TURNS);
  const said: string[] = [];
  const state: SessionState = {
    runtime,
    style: styleFor({ isTTY: false }),
    say: (text) => said.push(text),
    sessionId: undefined,
    clearScreen: () => {},
  };
  return { runtime, state, said };
}

describe('/export in the interactive session', () => {
  it('says there is nothing to export before a goal ran', async () => {
    const { state, said } = await session();
    await runSlashCommand(state, '/export');
    expect(said).toEqual(['No goal has run in this session yet: there is nothing to export.']);
  });

  it('writes this session to taskweave-<id>.md in the workspace, or to the file and format given', async () => {
    const { runtime, state, said } = await session();
    const submission = await runtime.submit('write hello.txt');
    if (submission.kind !== 'started') throw new Error('not started');
    await submission.done;
    state.sessionId = submission.sessionId;
    const root = runtime.workspace.root;

    await runSlashCommand(state, '/export');
    const markdownFile = path.join(root, `taskweave-${submission.sessionId}.md`);
    expect(said.at(-1)).toBe(`Exported this session as md to ${markdownFile}`);
    const markdown = await readFile(markdownFile, 'utf8');
    expect(markdown).toMatch(/^# write hello\.txt\n/);
    expect(markdown).toContain('### Final answer\n\nWrote **hello.txt**.');

    await runSlashCommand(state, '/export out/../session.json');
    const document = sessionExportSchema.parse(
      JSON.parse(await readFile(path.join(root, 'session.json'), 'utf8')),
    );
    expect(document.session.id).toBe(submission.sessionId);

    await runSlashCommand(state, '/export page.txt --format html');
    expect(said.at(-1)).toBe(`Exported this session as html to ${path.join(root, 'page.txt')}`);
    expect(await readFile(path.join(root, 'page.txt'), 'utf8')).toMatch(/^<!doctype html>/);

    // Mistakes are said, and write nothing.
    const before = (await readdir(root)).sort();
    await runSlashCommand(state, '/export x.md --format pdf');
    expect(said.at(-1)).toBe('"pdf" is not an export format: choose md, json, html.');
    await runSlashCommand(state, '/export no/such/folder/x.md');
    expect(said.at(-1)).toBe(
      `Cannot write the export to ${path.join(root, 'no/such/folder/x.md')}: its folder does not exist.`,
    );
    expect((await readdir(root)).sort()).toEqual(before);
  });

  it('reads a file and --format in either order, and says what it does not know', () => {
    expect(parseExportArgument('')).toEqual({});
    expect(parseExportArgument('a.html')).toEqual({ file: 'a.html' });
    expect(parseExportArgument('--format json a')).toEqual({ file: 'a', format: 'json' });
    expect(parseExportArgument('a --format=md')).toEqual({ file: 'a', format: 'md' });
    expect(parseExportArgument('--format')).toEqual({
      error: 'Say which format after --format: md, json or html.',
    });
    expect(parseExportArgument('a b')).toEqual({
      error: 'Give /export one file name (a name with spaces does not work here).',
    });
    expect(parseExportArgument('--pdf')).toEqual({
      error: '/export does not know --pdf: /export [file] [--format md|json|html].',
    });
  });
});
