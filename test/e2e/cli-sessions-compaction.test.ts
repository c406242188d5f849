import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const MODULES = 6;
/** Small enough that reading the modules compacts twice (at steps 4 and 6). */
const WINDOW_TOKENS = 4000;
let workspace: string;

beforeAll(async () => {
  workspace = await tempWorkspaceRoot('taskweave-compacted-');
  await mkdir(path.join(workspace, 'src'));
  await mkdir(path.join(workspace, '.taskweave'));
  for (let index = 1; index <= MODULES; index++) {
    const line = `export const value${index} = 'a line that makes the module about four kilobytes long';\n`;
    await writeFile(path.join(workspace, 'src', `module-${index}.ts`), line.repeat(50));
  }
  await writeFile(
    path.join(workspace, '.taskweave', 'config.json'),
    JSON.stringify({ context: { script: { window: WINDOW_TOKENS } } }),
  );
  const script = await writeScript(workspace, {
    turns: [
      { phase: 'compact', text: 'First summary: modules 1-3 read.' },
      { phase: 'compact', text: 'Second summary: modules 1-5 read.' },
      ...Array.from({ length: MODULES }, (_, index) => ({
        text: `Reading module ${index + 1}.`,
        toolCalls: [{ name: 'read_file', args: { path: `src/module-${index + 1}.ts` } }],
      })),
      { text: 'All modules read.' },
    ],
  });
  const run = await runCli([
    'run',
    'read the modules',
    '-C',
    workspace,
    '--model',
    `script:${script}`,
    '--plan',
    'never',
    '--approval',
    'auto',
    '--json',
  ]);
  expect(run.code).toBe(0);
  expect(run.stdout.match(/"update_type":"context_compacted"/g)).toHaveLength(2);
}, 60_000);

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('sessions show after compactions', () => {
  it('lists each message once, in order, with each compaction at its place', async () => {
    const shown = await runCli(['sessions', 'show', 'last', '-C', workspace]);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\n');
    const messages = lines.slice(lines.findIndex((line) => line.startsWith('Messages')));
    const assistant = messages.filter((line) => line.trimStart().startsWith('assistant'));
    expect(assistant.map((line) => line.replace(/^\s*assistant\s+/, ''))).toEqual([
      ...Array.from(
        { length: MODULES },
        (_, index) => `Reading module ${index + 1}. → read_file("src/module-${index + 1}.ts")`,
      ),
      'All modules read.',
    ]);
    expect(messages.filter((line) => line.trimStart().startsWith('tool'))).toHaveLength(MODULES);
    expect(messages[0]).toBe(`Messages (${1 + 2 * MODULES + 1})`);
    // The first compaction replaced the goal and steps 1-2 (5 messages), the second its summary
    // and steps 3-4 (5 again); each stands where it happened.
    const compactions = messages.flatMap((line, index) => (line.includes('— compacted:') ? [index] : []));
    expect(compactions).toHaveLength(2);
    expect(messages[compactions[0]!]?.trim()).toBe('— compacted: 5 messages summarised —');
    expect(messages[compactions[0]! - 2]).toContain('Reading module 3.');
    expect(messages[compactions[0]! + 1]).toContain('Reading module 4.');
    expect(messages[compactions[1]! - 2]).toContain('Reading module 5.');
    expect(messages[compactions[1]! + 1]).toContain('Reading module 6.');
    expect(shown.stdout).not.toContain('First summary');
  });

  it('shows the summaries with --full', async () => {
    const shown = await runCli(['sessions', 'show', 'last', '--full', '-C', workspace]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('First summary: modules 1-3 read.');
    expect(shown.stdout).toContain('Second summary: modules 1-5 read.');
    // The steps each compaction kept whole (3, then 5) are not shown again after it.
    for (const step of [3, 4, 5]) expect(shown.stdout.split(`Reading module ${step}.`)).toHaveLength(2);
  });

  it('prints each message once in --json, the summaries marked as compactions', async () => {
    const shown = await runCli(['sessions', 'show', 'last', '--json', '-C', workspace]);
    expect(shown.code).toBe(0);
    const { messages } = JSON.parse(shown.stdout) as {
      messages: { id: number; role: string; content: unknown; compaction?: { messages_replaced: number } }[];
    };
    const contents = messages.map((message) => JSON.stringify(message.content));
    expect(new Set(contents).size).toBe(contents.length);
    expect(messages.map((message) => message.id)).toEqual(
      [...messages.map((m) => m.id)].sort((a, b) => a - b),
    );
    expect(messages.flatMap((message) => (message.compaction ? [message.compaction] : []))).toEqual([
      { messages_replaced: 5 },
      { messages_replaced: 5 },
    ]);
    expect(messages).toHaveLength(1 + 2 * MODULES + 1 + 2);
  });
});
