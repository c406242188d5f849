import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Heading, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString as textOf } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionExportSchema } from '../../src/export/export-schema.js';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { launchBrowser } from '../web/serve-harness.js';

/** Where the export screenshots go (ignored by git). */
const SCREENSHOTS = path.resolve('test-results/export');

const GOAL = 'write the notes and check the printer';
/** A command whose output is hostile to a page: a script, a markdown image that would fetch, and 100 more lines. */
const HOSTILE_COMMAND =
  'printf \'<script>document.title="pwned"</script>\\n![tracker](http://127.0.0.1:9/track.png)\\n<img src=http://127.0.0.1:9/img.png>\\n\'; seq 1 100';

/** The first process: plans two tasks, writes and edits a file, runs the hostile command, asks a question. */
const FIRST = [
  {
    text: 'Two parts: I will **plan** them. ![pixel](http://127.0.0.1:9/pixel.png)',
    toolCalls: [
      {
        name: 'plan_actions',
        args: {
          tasks: [
            {
              id: 'notes',
              title: 'Write the notes',
              description: 'Write notes.md and fix its title.',
              depends_on: [],
            },
            {
              id: 'check',
              title: 'Check the output',
              description: 'Run the printer and ask how to go on.',
              depends_on: ['notes'],
            },
          ],
        },
      },
    ],
  },
  {
    task: 'notes',
    text: 'Writing the notes first.',
    toolCalls: [{ name: 'write_file', args: { path: 'notes.md', content: '# Notes\n\nfirst line\n' } }],
  },
  {
    task: 'notes',
    text: 'Now the title.',
    toolCalls: [
      {
        name: 'edit_file',
        args: { path: 'notes.md', edits: [{ find: '# Notes', replace: '# Release notes' }] },
      },
      { name: 'task_completed', args: { summary: 'notes.md written, title fixed.' } },
    ],
  },
  {
    task: 'check',
    text: 'Running the printer.',
    toolCalls: [{ name: 'run_command', args: { command: HOSTILE_COMMAND } }],
  },
  {
    task: 'check',
    text: 'I need to know one thing.',
    toolCalls: [{ name: 'request_input', args: { question: 'Should the notes mention **the printer**?' } }],
  },
];
/** The second process (resume --answer yes): the task goes on from the answer, then the final answer. */
const SECOND = [
  {
    task: 'check',
    when: 'The user answered: yes',
    text: 'Noted, done.',
    toolCalls: [
      { name: 'task_completed', args: { summary: 'Checked; the user wants the printer mentioned.' } },
    ],
  },
  {
    toolCalls: [
      {
        name: 'final_answer',
        args: { answer: 'Wrote **notes.md** and checked the printer.\n\n- title fixed\n- printer checked' },
      },
    ],
  },
];

let workspace: string;
let scripts: string;
let sessionId: string;
let browser: Browser;

beforeAll(async () => {
  workspace = await tempWorkspaceRoot('taskweave-export-');
  scripts = await tempWorkspaceRoot('taskweave-export-scripts-');
  const first = await writeScript(scripts, { turns: FIRST }, 'first.json');
  const second = await writeScript(scripts, { turns: SECOND }, 'second.json');
  const common = ['--approval', 'auto', '--cwd', workspace];
  const asked = await runCli(['run', ...common, '--model', `script:${first}`, '--yes', GOAL]);
  expect(asked.code, asked.stdout + asked.stderr).toBe(4);
  const answered = await runCli([
    'resume',
    ...common,
    '--model',
    `script:${second}`,
    '--yes',
    '--answer',
    'yes',
  ]);
  expect(answered.code, answered.stdout + answered.stderr).toBe(0);
  const list = JSON.parse((await runCli(['sessions', 'list', '--json', '--cwd', workspace])).stdout);
  sessionId = list[0].id;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function headings(tree: Root): string[] {
  return tree.children
    .filter((node): node is Heading => node.type === 'heading')
    .map((node) => `${'#'.repeat(node.depth)} ${textOf(node)}`);
}

/** The top-level nodes between a heading and the next heading of its depth or above. */
function section(tree: Root, title: string): Root['children'] {
  const start = tree.children.findIndex((node) => node.type === 'heading' && textOf(node) === title);
  expect(start, `no heading "${title}"`).toBeGreaterThan(-1);
  const depth = (tree.children[start] as Heading).depth;
  const end = tree.children.findIndex(
    (node, index) => index > start && node.type === 'heading' && node.depth <= depth,
  );
  return tree.children.slice(start + 1, end === -1 ? undefined : end);
}

describe('taskweave sessions export of a plan session', () => {
  it('md (the default, to stdout): the goal, the plan and its tasks, every step and call, the question answered, the final answer, tokens', async () => {
    const result = await runCli(['sessions', 'export', sessionId, '--cwd', workspace]);
    expect(result.code, result.stderr).toBe(0);
    const tree = parseMarkdown(result.stdout);
    const titles = headings(tree);
    expect(titles.filter((title) => /^#{1,2} /.test(title))).toEqual([
      `# ${GOAL}`,
      '## Goal',
      '## Plan',
      '## Run 1: Needs input',
      '## Run 2: Completed',
      '## Tokens',
    ]);
    expect(titles).toEqual(
      expect.arrayContaining([
        '### Step 2 · Write the notes',
        '### Step 3 · Write the notes',
        '### Question',
        '### Final answer',
      ]),
    );
    expect(titles.some((title) => title.startsWith('#### ✓ write_file notes.md — created, 3 lines · '))).toBe(
      true,
    );
    expect(titles.some((title) => title.startsWith('#### ✓ edit_file notes.md, 1 edit'))).toBe(true);
    expect(titles.some((title) => title.startsWith('#### ✓ run_command printf'))).toBe(true);

    // The plan: one table row per task, with its state at the end.
    const table = section(tree, 'Plan').find((node) => node.type === 'table');
    const rows =
      table?.type === 'table' ? table.children.map((row) => row.children.map((cell) => textOf(cell))) : [];
    expect(rows.slice(1).map((row) => [row[0], row[1], row[3], row[4]])).toEqual([
      ['notes', 'Write the notes', 'completed', 'notes.md written, title fixed.'],
      ['check', 'Check the output', 'completed', 'Checked; the user wants the printer mentioned.'],
    ]);

    // The question, with the answer given to resume --answer.
    const question = section(tree, 'Question').map((node) => textOf(node));
    expect(question).toEqual(['Should the notes mention the printer?', 'Answer: yes']);

    // The diff of the edit, and the command's hostile output fenced and cut.
    const code = tree.children.flatMap((node) => (node.type === 'code' ? [node] : []));
    expect(code).toContainEqual(
      expect.objectContaining({ lang: 'diff', value: '@@ line 1 @@\n- # Notes\n+ # Release notes' }),
    );
    const output = code.find((node) => node.value.includes('document.title'));
    expect(output?.value).toContain(
      '<script>document.title="pwned"</script>\n![tracker](http://127.0.0.1:9/track.png)',
    );
    expect(result.stdout).toMatch(
      /\*… \d+ more lines \(of 10\d\) cut: the whole output is in the JSON export/,
    );
    // The model's image is text here, never an image a viewer would fetch.
    expect(JSON.stringify(tree)).not.toContain('"type":"image"');
    expect(textOf(section(tree, 'Final answer')[0]!)).toBe('Wrote notes.md and checked the printer.');
    expect(section(tree, 'Tokens').some((node) => node.type === 'table')).toBe(true);
  });

  it('json: valid against the export schema, the plan and question whole, outputs uncut', async () => {
    const result = await runCli([
      'sessions',
      'export',
      sessionId.slice(0, 8),
      '--format',
      'json',
      '--cwd',
      workspace,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const document = sessionExportSchema.parse(JSON.parse(result.stdout));
    expect(document.session).toMatchObject({ id: sessionId, goal: GOAL });
    expect(document.runs.map((run) => run.status)).toEqual(['needs_input', 'completed']);
    expect(document.plans.at(-1)?.tasks.map((task) => [task.id, task.state])).toEqual([
      ['notes', 'completed'],
      ['check', 'completed'],
    ]);
    expect(document.timeline.find((entry) => entry.kind === 'question')).toMatchObject({
      question: 'Should the notes mention **the printer**?',
      answer: 'yes',
      task_id: 'check',
    });
    const command = document.timeline
      .flatMap((entry) => (entry.kind === 'step' ? entry.tool_calls : []))
      .find((call) => call.name === 'run_command');
    expect(command?.output).toContain('\n100\n');
    const steps = document.timeline.flatMap((entry) => (entry.kind === 'step' ? [entry] : []));
    expect(steps.reduce((sum, step) => sum + step.usage.input_tokens, 0)).toBe(document.usage.input_tokens);
    expect(document.usage.cost).toBeUndefined();
    expect(document.timeline.at(-1)).toMatchObject({ kind: 'completion', status: 'completed' });
  });

  it('html to a file (-o, the format from its extension): opened in chromium without JavaScript, readable, and the hostile output inert', async () => {
    const folder = await tempWorkspaceRoot('taskweave-export-out-');
    const file = path.join(folder, 'session.html');
    await writeFile(file, 'the old content\n');
    const result = await runCli(['sessions', 'export', 'last', '-o', file, '--cwd', workspace]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^Exported session ${sessionId} as html to ${file} \\(\\d+ bytes\\)\\.\n$`),
    );
    // Replaced whole, and no temporary file left beside it.
    expect(await readdir(folder)).toEqual(['session.html']);
    const html = await readFile(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);

    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({
        javaScriptEnabled,
        viewport: { width: 1100, height: 1400 },
        colorScheme: 'light',
      });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(pathToFileURL(file).href);
      expect(await page.title()).toBe(`${GOAL} · taskweave session`);
      expect(await page.locator('script, img, iframe, link, object, embed').count()).toBe(0);
      // Nothing was fetched but the file itself: not the tracker, not the model's image.
      expect(requests).toEqual([pathToFileURL(file).href]);
      await expect(page.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual([
        'Goal',
        'Plan',
        'Run 1: Needs input',
        'Run 2: Completed',
        'Tokens',
      ]);
      // The hostile output is text in a <details>; opened, it reads as written.
      const command = page.locator('details', { hasText: 'document.title' });
      await command.locator('summary').click();
      await expect(command.locator('pre').textContent()).resolves.toContain(
        '<script>document.title="pwned"</script>',
      );
      expect(await page.locator('.answer').first().textContent()).toBe('Answer: yes');
      if (!javaScriptEnabled) {
        await mkdir(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOTS, 'plan-session.png'), fullPage: true });
      }
      await context.close();
    }
  });

  it('a wrong id, a wrong format or a folder that does not exist: a clear error, exit 2, nothing written', async () => {
    const unknown = await runCli(['sessions', 'export', 'zzzzzz', '--cwd', workspace]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no session whose id starts with "zzzzzz"');
    expect(unknown.stdout).toBe('');

    const format = await runCli(['sessions', 'export', sessionId, '--format', 'pdf', '--cwd', workspace]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('"pdf" is not an export format: choose md, json, html.');
    expect(format.stdout).toBe('');

    const folder = await tempWorkspaceRoot('taskweave-export-missing-');
    const missing = await runCli([
      'sessions',
      'export',
      sessionId,
      '-o',
      path.join(folder, 'no', 'x.md'),
      '--cwd',
      workspace,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `Cannot write the export to ${path.join(folder, 'no', 'x.md')}: its folder does not exist.`,
    );
    expect(await readdir(folder)).toEqual([]);
  });
});
