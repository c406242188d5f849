import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandCommandText } from '../../../src/runtime/custom-commands/expand-command.js';
import { parseCommandFile } from '../../../src/runtime/custom-commands/front-matter.js';
import { loadCustomCommands } from '../../../src/runtime/custom-commands/load-commands.js';
import { tempWorkspaceRoot } from '../../helpers/run-harness.js';
import { kindOf, openRuntime, record } from '../helpers.js';

async function folders() {
  const root = await tempWorkspaceRoot('taskweave-cmd-');
  const configHome = await tempWorkspaceRoot('taskweave-cmd-home-');
  const project = path.join(root, '.taskweave', 'commands');
  const user = path.join(configHome, 'taskweave', 'commands');
  await mkdir(project, { recursive: true });
  await mkdir(user, { recursive: true });
  return { root, configHome, project, user, env: { HOME: '/nonexistent', XDG_CONFIG_HOME: configHome } };
}

describe('expanding a command', () => {
  it('puts in $ARGUMENTS and $1, $2 (a quoted phrase is one word, a missing one is empty)', () => {
    expect(expandCommandText('Review $ARGUMENTS carefully.', 'src/a.ts src/b.ts')).toBe(
      'Review src/a.ts src/b.ts carefully.',
    );
    expect(expandCommandText('Rename $1 to $2 in $3.', 'old "new name"')).toBe('Rename old to new name in .');
    expect(expandCommandText('Fix issue #$1, then $1 again', '42')).toBe('Fix issue #42, then 42 again');
  });

  it('appends the arguments to a text that uses none of them', () => {
    expect(expandCommandText('Write tests.\n', 'for the parser')).toBe('Write tests.\n\nfor the parser');
    expect(expandCommandText('Write tests.', '')).toBe('Write tests.');
  });
});

describe('front matter', () => {
  it('reads description, loop, plan and approval, quoted or not', () => {
    const parsed = parseCommandFile(
      '---\ndescription: "Review: the diff"\nloop: roa\nplan: never\napproval: plan-only\n---\nReview $ARGUMENTS\n',
    );
    expect(parsed.frontMatter).toEqual({
      description: 'Review: the diff',
      loop: 'roa',
      plan: 'never',
      approval: 'plan-only',
    });
    expect(parsed.body.trim()).toBe('Review $ARGUMENTS');
  });

  it('says which line is wrong: unknown keys, bad values, nesting, no closing line', () => {
    expect(() => parseCommandFile('---\nmodel: x\n---\nhi')).toThrow(/line 2: unknown key "model"/);
    expect(() => parseCommandFile('---\napproval: yolo\n---\nhi')).toThrow(
      /approval must be one of [a-z, -]+, not "yolo"/,
    );
    expect(() => parseCommandFile('---\ndescription: [a, b]\n---\nhi')).toThrow(/only plain one-line values/);
    expect(() => parseCommandFile('---\ndescription: x\nhi')).toThrow(/no closing --- line/);
    expect(() => parseCommandFile('---\n  nested\n---\nhi')).toThrow(/not "key: value"/);
  });
});

describe('loading command files', () => {
  it('reads the project and user folders (XDG_CONFIG_HOME), names a bad file and still loads the others', async () => {
    const { root, project, user, env } = await folders();
    await writeFile(path.join(project, 'review.md'), '---\ndescription: Review a file\n---\nReview $1');
    await writeFile(path.join(project, 'broken.md'), '---\ncolour: red\n---\nx');
    await writeFile(path.join(user, 'standup.md'), 'Summarise yesterday');
    await writeFile(path.join(user, 'review.md'), 'the user one');
    await writeFile(path.join(user, 'help.md'), 'not mine');
    const { commands, problems } = await loadCustomCommands({ workspaceRoot: root, env, reserved: ['help'] });
    // The user's own /review wins over the project's; the listing names both files.
    expect(commands.map((command) => [command.name, command.source, command.description])).toEqual([
      ['review', 'user', undefined],
      ['standup', 'user', undefined],
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/broken\.md: line 2: unknown key "colour"/),
      expect.stringMatching(/help\.md: \/help is a built-in command, which wins/),
      expect.stringMatching(
        /\.taskweave\/commands\/review\.md: \/review is also your own .*taskweave\/commands\/review\.md, which wins/,
      ),
    ]);
  });

  it('refuses a project command that leads outside the workspace; a link inside it is used', async () => {
    const { root, project, env } = await folders();
    const outside = await tempWorkspaceRoot('taskweave-cmd-outside-');
    await writeFile(path.join(outside, 'secret.md'), 'the contents of a file outside the workspace');
    await symlink(path.join(outside, 'secret.md'), path.join(project, 'leak.md'));
    await writeFile(path.join(root, 'docs.md'), 'Summarise the docs');
    await symlink(path.join(root, 'docs.md'), path.join(project, 'docs.md'));
    const { commands, problems } = await loadCustomCommands({ workspaceRoot: root, env });
    expect(commands.map((command) => [command.name, command.body])).toEqual([['docs', 'Summarise the docs']]);
    expect(problems).toEqual([expect.stringMatching(/commands\/leak\.md: leads outside the workspace/)]);
    // Typed, it is refused with the reason; its text never becomes a goal.
    const runtime = await openRuntime([{ text: 'never asked' }], { cwd: root, env });
    await expect(runtime.customCommandGoal('/leak')).rejects.toThrow(
      /The command \/leak cannot be used: .*leads outside the workspace/,
    );
  });

  it('refuses every project command when the commands folder itself is a link outside the workspace', async () => {
    const { root, project, env } = await folders();
    const outside = await tempWorkspaceRoot('taskweave-cmd-outside-');
    await writeFile(path.join(outside, 'notes.md'), 'private notes');
    await rm(project, { recursive: true });
    await symlink(outside, project);
    const { commands, problems } = await loadCustomCommands({ workspaceRoot: root, env });
    expect(commands).toEqual([]);
    expect(problems).toEqual([expect.stringMatching(/commands\/notes\.md: leads outside the workspace/)]);
  });
});

describe('custom commands through the runtime', () => {
  it('starts the goal of the file with its arguments and runs it under its stricter approval mode', async () => {
    const { root, project, env } = await folders();
    await writeFile(
      path.join(project, 'explain.md'),
      '---\ndescription: Explain a file\napproval: plan-only\n---\nExplain $1 in $2 words.',
    );
    const runtime = await openRuntime([{ text: 'It is a parser.' }], { cwd: root, env, approval: 'auto' });
    const events = record(runtime);
    const goal = await runtime.customCommandGoal('/explain src/parser.ts fifty');
    expect(goal).toEqual({
      goal: 'Explain src/parser.ts in fifty words.',
      settings: { approval: 'plan-only' },
    });
    const submission = await runtime.submit(goal!.goal, { settings: goal!.settings });
    if (submission.kind !== 'started') throw new Error('expected the goal to start');
    await submission.done;
    const start = events.find((event) => kindOf(event) === 'agent_start');
    expect(start).toMatchObject({ goal: 'Explain src/parser.ts in fifty words.', approval: 'plan-only' });
    // The runtime's own mode is untouched: the next goal runs as before.
    expect(runtime.approvalMode).toBe('auto');
  });

  it('refuses a command asking for a looser approval mode than the session, project or user', async () => {
    const { root, project, user, env } = await folders();
    await writeFile(path.join(project, 'yolo.md'), '---\napproval: auto\n---\nDo it all');
    await writeFile(path.join(user, 'mine.md'), '---\napproval: edits\n---\nMine');
    const runtime = await openRuntime([{ text: 'unused' }], { cwd: root, env, approval: 'ask' });
    await expect(runtime.customCommandGoal('/yolo')).rejects.toThrow(
      /\/yolo asks for approval "auto", looser than this session's "ask": a command file cannot loosen safety/,
    );
    await expect(runtime.customCommandGoal('/mine')).rejects.toThrow(/cannot loosen safety/);
    expect(await runtime.customCommandGoal('/nothing-here')).toBeUndefined();
  });

  it('says why a broken command cannot be used when it is typed', async () => {
    const { root, project, env } = await folders();
    await writeFile(path.join(project, 'bad.md'), '---\nplan: sometimes\n---\nx');
    const runtime = await openRuntime([{ text: 'unused' }], { cwd: root, env });
    await expect(runtime.customCommandGoal('/bad')).rejects.toThrow(
      /The command \/bad cannot be used: .*bad\.md: line 2: plan must be one of auto, always, never/,
    );
  });
});
