import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const INDEX_TS =
  'const prices = [4.5, 12, 3.25];\nconst total: number = prices[0].toFixed(2);\nconsole.log(total);\n';
const FAILING_BUILD =
  'for i in $(seq 1 12); do echo "build line $i"; done; ' +
  `echo "src/index.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'." >&2; exit 2`;

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-pty-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

const task = (id: string, title = `Task ${id}`, description = `Do ${id}`, depends_on: string[] = []) => ({
  id,
  title,
  description,
  depends_on,
});

describe('on an 80×24 terminal', () => {
  it('a failed command shows its last lines, an edit its diff, a passing command one line', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'write_file', args: { path: 'src/index.ts', content: INDEX_TS } }] },
      { toolCalls: [{ name: 'run_command', args: { command: FAILING_BUILD } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'src/index.ts' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: {
              path: 'src/index.ts',
              edits: [{ find: 'const total: number', replace: 'const total: string' }],
            },
          },
        ],
      },
      { toolCalls: [{ name: 'run_command', args: { command: 'echo build ok; echo all good' } }] },
      { text: 'The build passes.' },
    ]);
    const run = await PtyRun.run(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'fix the build'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    expect(run.code, run.text).toBe(0);
    const lines = run.lines;
    const failed = lines.findIndex((line) => line.includes('✗ exit 2'));
    expect(failed, run.text).toBeGreaterThan(-1);
    // The compiler error and the lines before it, after a count of the lines left out.
    expect(lines[failed + 1]).toContain('… 5 more lines');
    expect(lines.slice(failed + 2, failed + 9).map((line) => line.replace(/^\s*│ /, ''))).toEqual(
      [6, 7, 8, 9, 10, 11, 12].map((n) => `build line ${n}`),
    );
    // The compiler error is whole: wider than the terminal, it wraps instead of being cut.
    expect(run.text).toContain(
      "│ src/index.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'.\n",
    );
    const edit = lines.findIndex((line) => line.includes('edit_file("src/index.ts", 1 edit) ✓'));
    expect(lines.slice(edit + 1, edit + 4).map((line) => line.trim())).toEqual([
      '@@ line 2 @@',
      '- const total: number = prices[0].toFixed(2);',
      '+ const total: string = prices[0].toFixed(2);',
    ]);
    const passed = lines.findIndex((line) => line.includes('run_command("echo build ok; echo all good") ✓'));
    expect(lines[passed + 1]).toBe('The build passes.');
    expect(run.text).not.toContain('│ build ok');
    expect(await readFile(path.join(workspace, 'src/index.ts'), 'utf8')).toContain('const total: string');
  });

  it('--verbose shows every line of a command’s output', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: FAILING_BUILD } }] },
      { toolCalls: [{ name: 'run_command', args: { command: 'echo build ok' } }] },
      { text: 'Seen.' },
    ]);
    const run = await PtyRun.run(
      ['run', '--verbose', '--approval', 'auto', '--model', model, '--cwd', workspace, 'build'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    expect(run.code, run.text).toBe(0);
    expect(run.text).toContain('│ build line 1\n');
    expect(run.text).toContain('│ build ok');
    expect(run.text).not.toContain('more lines');
  });

  it('control tools print no ✓ of their own; task tool lines carry their task; a rejected plan is not listed', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'plan_actions', args: { tasks: [task('x')] } }] },
      { when: 'two files', toolCalls: [{ name: 'plan_actions', args: { tasks: [task('a'), task('b')] } }] },
      { task: 'a', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
      { task: 'a', toolCalls: [{ name: 'final_answer', args: { answer: 'all done' } }] },
      { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'wrote a' } }] },
      { task: 'b', toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b\n' } }] },
      { task: 'b', toolCalls: [{ name: 'task_completed', args: { summary: 'wrote b' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Wrote a and b.' } }] },
    ]);
    const run = PtyRun.start(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'write files'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    await run.waitFor('Approve this plan?');
    run.type('two files\r');
    await run.waitFor('Approve this plan?', { count: 2 });
    run.type('y\r');
    expect(await run.exited, run.text()).toBe(0);
    const text = run.text();
    expect(text).not.toMatch(/→ (plan_actions|task_completed|final_answer)/);
    expect(text).toContain('[a] → write_file("a.txt") ✓');
    expect(text).toContain('[b] → write_file("b.txt") ✓');
    expect(text).toMatch(/! final answer refused: [12] tasks? remains?; the run goes on/);
    expect(text.split('wrote a')).toHaveLength(2);
    expect(text.split('Wrote a and b.')).toHaveLength(2);
    expect(text).not.toContain('[x] Task x pending');
    expect(text).toMatch(/Tasks:\n {2}✓ \[a\] Task a completed\n {2}✓ \[b\] Task b completed\n/);
    // The rejected plan's task is cancelled with it, not left pending forever.
    const listed = await PtyRun.run(['tasks', 'list', '--all', '--cwd', workspace], {
      env: { NO_COLOR: '1' },
    });
    expect(listed.text).toMatch(/cancelled\s+└ Task x/);
    expect(listed.text).not.toContain('pending');
  });

  it('wraps its own lines and the model’s text between words: the terminal folds no row', async () => {
    const summary =
      'Wrote webapp/public/index.html, a page that loads the compiled script from dist/index.js';
    const streamed =
      'The page needs the compiled script, so it loads dist/index.js with a module script tag in the head.';
    const answer = [
      'Created the TypeScript project webapp with package.json and tsconfig.json, src/index.ts with a main function, and public/index.html.',
      '',
      '- The build script runs tsc and writes the compiled files to dist, which the page loads at start-up.',
    ].join('\n');
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'plan_actions', args: { tasks: [task('html', 'Write public/index.html')] } }] },
      {
        task: 'html',
        text: streamed,
        toolCalls: [
          { name: 'run_command', args: { command: `echo ${'checking the page markup '.repeat(4)}` } },
        ],
      },
      { task: 'html', toolCalls: [{ name: 'task_completed', args: { summary } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer } }] },
    ]);
    const run = await PtyRun.run(
      ['run', '--yes', '--approval', 'auto', '--model', model, '--cwd', workspace, 'write the page'],
      { env: { FORCE_COLOR: '1' } },
    );
    expect(run.code, run.text).toBe(0);
    const rows = run.lines;
    // A row the terminal folded is joined to the one before it in the text: there is none.
    expect(run.text.split('\n').filter((row) => row !== '')).toEqual(rows.filter((row) => row !== ''));
    expect(rows.every((row) => row.length < 80)).toBe(true);
    expect(rows).toContain('[html] The page needs the compiled script, so it loads dist/index.js with a');
    expect(rows).toContain('✓ [html] Write public/index.html — Wrote webapp/public/index.html, a page that');
    // A tool call is cut to keep its result on its row.
    expect(rows.find((row) => row.startsWith('[html] → run_command('))).toMatch(/…"\) ✓ exit 0 · [\d.]+m?s$/);
    expect(rows).toContain('• The build script runs tsc and writes the compiled files to dist, which the');
    expect(rows).toContain('  page loads at start-up.');
  });

  it('wraps the plan at word boundaries; a bad failure choice is answered; a skipped task is said; no "1 steps"', async () => {
    const long = 'Write the configuration loader that merges the project settings over the user settings';
    const { workspace, model } = await setup([
      {
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: [
                task('config', 'Configuration loader', long),
                task('docs', 'Docs', 'Write docs', ['config']),
              ],
            },
          },
        ],
      },
      { task: 'config', toolCalls: [{ name: 'fail_task', args: { reason: 'the network was down' } }] },
      { task: 'docs', toolCalls: [{ name: 'task_completed', args: { summary: 'wrote docs' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Docs written.' } }] },
    ]);
    const run = PtyRun.start(
      ['run', '--yes', '--approval', 'auto', '--model', model, '--cwd', workspace, 'plan it'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    await run.waitFor('[a]bort?');
    run.type('maybe\r');
    await run.waitFor('"maybe" is not one of the choices');
    run.type('s\r');
    expect(await run.exited, run.text()).toBe(0);
    const lines = run.lines();
    // No row of the plan ends inside a word: every row is a whole line or breaks at a space.
    const taskRow = lines.findIndex((line) => line.startsWith('  [config] '));
    expect(lines[taskRow + 1]).toMatch(/^ {6}\S/);
    expect(`${lines[taskRow]} ${lines[taskRow + 1]?.trim()}`).toContain(long);
    expect(run.text()).toContain('↷ [config] Configuration loader — skipped');
    expect(run.text()).toMatch(/✓ completed, 1 task skipped · \d+ steps/);
    expect(run.text()).not.toMatch(/\b1 steps\b|task\(s\)/);
  });
  it('a failed task check shows its output once, without the text meant for the model', async () => {
    const check = "test -f ok.txt || { echo 'ok.txt is missing'; exit 1; }";
    const { workspace, model } = await setup([
      {
        toolCalls: [
          { name: 'plan_actions', args: { tasks: [{ ...task('a', 'Make ok', 'create ok.txt'), check }] } },
        ],
      },
      { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'done' } }] },
      { task: 'a', toolCalls: [{ name: 'write_file', args: { path: 'ok.txt', content: 'ok\n' } }] },
      { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'done now' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Made ok.txt.' } }] },
    ]);
    const run = await PtyRun.run(
      [
        'run',
        '--yes',
        '--approval',
        'auto',
        '--sandbox',
        'off',
        '--model',
        model,
        '--cwd',
        workspace,
        'make ok',
      ],
      { env: { NO_COLOR: '1' } },
    );
    expect(run.code, run.text).toBe(0);
    // The plan shows the task's check; the check's output shows once, under its call.
    expect(run.lines).toContain(`      check: ${check}`);
    expect(run.text.match(/^(\s*│ )?ok\.txt is missing$/gm), run.text).toEqual(['    │ ok.txt is missing']);
    expect(run.text).toContain("! [a] The task's check failed, so the task is not done yet: it goes on.");
    expect(run.text).not.toMatch(/Exit code:|--- stdout ---|--- stderr ---|call task_completed again/);
    expect(run.text).toContain('✓ [a] Make ok — done now');
    // The final answer comes before the closing line, as in a run without a plan.
    expect(run.text).toMatch(
      /Tasks:\n {2}✓ \[a\] Make ok completed\n\nMade ok\.txt\.\n✓ completed · 5 steps/,
    );
  });
});
