import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PTY_COLUMNS, PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const TASKS = [
  {
    id: 'parse',
    title: 'Parse the configuration file format and validate every field against the schema',
    description: 'Read config.json, check each field, report errors with line numbers',
    depends_on: [],
  },
  {
    id: 'docs',
    title: 'Document the command-line options in the README with examples',
    description: 'A section per option',
    depends_on: ['parse'],
  },
];
const FINAL =
  'All tasks are done: the parser validates every field, and the README documents each option with an example.';
let workspace: string;
let scriptFolder: string;

beforeAll(async () => {
  workspace = await tempWorkspaceRoot('taskweave-listings-');
  const turns: unknown[] = [
    {
      text: 'I will plan this in two tasks, because the parser must exist before the documentation can describe it.',
      toolCalls: [{ name: 'plan_actions', args: { tasks: TASKS } }],
    },
  ];
  for (const task of TASKS) {
    turns.push(
      {
        task: task.id,
        text: `Working on ${task.id}: a long enough explanation of this step that it passes eighty columns.`,
        toolCalls: [{ name: 'write_file', args: { path: `${task.id}.md`, content: 'x' } }],
      },
      { task: task.id, toolCalls: [{ name: 'task_completed', args: { summary: `${task.id} is done.` } }] },
    );
  }
  turns.push({ text: FINAL });
  scriptFolder = await tempWorkspaceRoot('taskweave-listings-script-');
  const script = await writeScript(scriptFolder, { turns });
  const run = await runCli([
    'run',
    'add a validated config file with docs, tests and a changelog entry for the release',
    '-C',
    workspace,
    '--model',
    `script:${script}`,
    '--plan',
    'always',
    '-y',
    '--approval',
    'auto',
  ]);
  expect(run.code).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const folder of [workspace, scriptFolder]) await rm(folder, { recursive: true, force: true });
});

/** The lines as written (a row the terminal wrapped is joined to the one before it). */
async function shown(args: string[]): Promise<string[]> {
  const { code, text } = await PtyRun.run([...args, '-C', workspace], { env: { NO_COLOR: '1' } });
  expect(code).toBe(0);
  return text.split('\n').map((line) => line.trimEnd());
}

function tooWide(lines: string[]): string[] {
  return lines.filter((line) => [...line].length > PTY_COLUMNS);
}

describe('listings on an 80×24 terminal', () => {
  it('sessions show: every line fits, long texts wrap between words under their label', async () => {
    for (const args of [
      ['sessions', 'show', 'last'],
      ['sessions', 'show', 'last', '--full', '--events'],
    ]) {
      const lines = await shown(args);
      expect(tooWide(lines)).toEqual([]);
      const answer = lines.findIndex((line) => line.startsWith('     final answer: All tasks are done'));
      expect(answer).toBeGreaterThan(0);
      // The answer's rows, joined again, are the answer: no word was cut.
      const rows = [lines[answer]!.replace('     final answer: ', '')];
      for (let index = answer + 1; lines[index]?.startsWith('       '); index++)
        rows.push(lines[index]!.trim());
      expect(rows.join(' ')).toBe(FINAL);
    }
  });

  it('tasks list and sessions list: each row on one line, the columns aligned, titles cut to fit', async () => {
    const tasks = await shown(['tasks', 'list', '--all']);
    expect(tooWide(tasks)).toEqual([]);
    const [header, ...rows] = tasks.filter((line) => line !== '');
    expect(rows).toHaveLength(1 + TASKS.length);
    const updated = header!.indexOf('updated');
    for (const row of rows) {
      expect(row.slice(updated)).toMatch(/^\S/);
      expect(row.slice(updated - 2, updated)).toBe('  ');
    }
    expect(rows[1]).toContain('└ Parse the configuration');
    expect(rows[1]).toContain('…');

    const sessions = await shown(['sessions', 'list']);
    expect(tooWide(sessions)).toEqual([]);
    expect(sessions[1]).toContain('add a validated config file');

    const empty = await shown(['tasks', 'list']);
    expect(tooWide(empty)).toEqual([]);
    expect(empty).toContain('Add one with: taskweave tasks add "<what to do>"');
  });
});
