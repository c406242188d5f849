import { describe, expect, it } from 'vitest';
import { alwaysLabel, alwaysScope } from '../../../src/agent/approval/always-scope.js';
import { type ApprovalQuestion, decideApproval } from '../../../src/agent/approval/approval-rules.js';
import { type CommandLine, readCommandLine } from '../../../src/agent/approval/command-line.js';
import { SessionApprovals } from '../../../src/agent/approval/session-approvals.js';

/** A call as the rules see it: `command` is read with the bash grammar first, as the gate does. */
type Overrides = Partial<Omit<ApprovalQuestion, 'line'>> & { command?: string };

async function question(overrides: Overrides): Promise<ApprovalQuestion> {
  const { command = 'npm test', ...rest } = overrides;
  const changes = rest.changes ?? 'command';
  return {
    mode: 'ask',
    toolName: 'run_command',
    changes,
    allow: [],
    deny: [],
    sandboxMissing: false,
    remembered: new SessionApprovals(),
    ...rest,
    ...(changes === 'command' ? { line: await readCommandLine(command) } : {}),
  };
}

/** The verdict for a call. */
async function decide(overrides: Overrides) {
  return decideApproval(await question(overrides));
}

/** Remembers an "always" answer for a command, as the gate does; returns the button's label. */
async function always(remembered: SessionApprovals, command: string): Promise<string> {
  const line: CommandLine = await readCommandLine(command);
  const scope = alwaysScope({ toolName: 'run_command', changes: 'command', line });
  remembered.remember(scope);
  return alwaysLabel(scope);
}

const write = { toolName: 'write_file', changes: 'files' } as const;
const mcp = { toolName: 'everything__echo', changes: 'external' } as const;
const read = { toolName: 'read_file', changes: 'none' } as const;

describe('decideApproval', async () => {
  it('ask: commands, file changes and MCP tools are asked; reads run', async () => {
    expect(await decide({})).toMatchObject({ kind: 'ask', allowedBy: /--approval auto/ });
    expect(await decide(write)).toMatchObject({ kind: 'ask', allowedBy: '--approval edits' });
    expect(await decide(mcp)).toMatchObject({ kind: 'ask' });
    expect(await decide(read)).toEqual({ kind: 'run' });
  });

  it('edits: file changes run, commands and MCP tools are asked', async () => {
    expect(await decide({ mode: 'edits', ...write })).toEqual({ kind: 'run' });
    expect(await decide({ mode: 'edits' })).toMatchObject({ kind: 'ask' });
    expect(await decide({ mode: 'edits', ...mcp })).toMatchObject({ kind: 'ask' });
  });

  it('auto: everything runs; without bubblewrap commands fall back to being asked', async () => {
    expect(await decide({ mode: 'auto' })).toEqual({ kind: 'run' });
    expect(await decide({ mode: 'auto', ...mcp })).toEqual({ kind: 'run' });
    expect(await decide({ mode: 'auto', sandboxMissing: true })).toMatchObject({
      kind: 'ask',
      allowedBy: /--sandbox off/,
    });
    expect(await decide({ mode: 'auto', sandboxMissing: true, ...write })).toEqual({
      kind: 'run',
    });
  });

  it('plan-only: every change is refused, reads run', async () => {
    for (const kind of [{}, write, mcp]) {
      expect(await decide({ mode: 'plan-only', ...kind })).toMatchObject({
        kind: 'refuse',
        message: /plan-only/,
      });
    }
    expect(await decide({ mode: 'plan-only', ...read })).toEqual({ kind: 'run' });
  });

  it('the allow list lets a matching plain command run, never a compound one', async () => {
    const allow = ['npm test', 'git status'];
    expect(await decide({ allow })).toEqual({ kind: 'run' });
    expect(await decide({ allow, command: 'npm test -- --coverage' })).toEqual({ kind: 'run' });
    expect(await decide({ allow, command: 'npm test; rm -rf ~' })).toMatchObject({ kind: 'ask' });
    expect(await decide({ allow, command: 'npm testing' })).toMatchObject({ kind: 'ask' });
    expect(await decide({ allow, command: 'npm install' })).toMatchObject({ kind: 'ask' });
    expect(await decide({ allow: ['everything__*'], ...mcp })).toEqual({ kind: 'run' });
  });

  it('the deny list wins over every mode and the allow list, in any part of a line', async () => {
    const deny = ['git push'];
    for (const command of [
      'git push',
      'git push --force origin main',
      'npm test && git push',
      'echo $(git push)',
    ]) {
      expect(await decide({ mode: 'auto', deny, allow: ['git'], command })).toMatchObject({
        kind: 'refuse',
        message: /`git push` is on the deny list/,
      });
    }
    expect(await decide({ mode: 'auto', deny, command: 'git status' })).toEqual({ kind: 'run' });
    expect(await decide({ mode: 'auto', deny: ['everything__echo'], ...mcp })).toMatchObject({
      kind: 'refuse',
    });
  });

  it('"always" answers of the session: a command prefix, file changes, an MCP tool', async () => {
    const remembered = new SessionApprovals();
    expect(await always(remembered, 'npm run build')).toBe('Always allow `npm run build …`');
    expect(await decide({ remembered, command: 'npm run build -- --watch' })).toEqual({
      kind: 'run',
    });
    expect(await decide({ remembered, command: 'npm run lint' })).toMatchObject({ kind: 'ask' });
    expect(await decide({ remembered, command: 'npm run build; rm -rf ~' })).toMatchObject({
      kind: 'ask',
    });
    remembered.remember(alwaysScope(write));
    expect(await decide({ remembered, ...write })).toEqual({ kind: 'run' });
    remembered.remember(alwaysScope(mcp));
    expect(await decide({ remembered, ...mcp })).toEqual({ kind: 'run' });
  });
});

describe('the deny list sees through wrappers, shell keywords, compound commands and git options', () => {
  const refused = { kind: 'refuse', message: expect.stringMatching(/is on the deny list/) };

  it.each([
    // wrappers
    'env rm -rf build',
    'env FOO=1 rm -rf build',
    'command rm -rf build',
    'exec rm -rf build',
    'nice -n 5 rm -rf build',
    'nohup rm -rf build',
    'timeout 5 rm -rf build',
    'timeout -s KILL 5 rm -rf build',
    'stdbuf -oL rm -rf build',
    'setsid rm -rf build',
    'echo build | xargs rm -rf',
    'echo build | xargs -I{} rm -rf {}',
    'time rm -rf build',
    'sudo -u root rm -rf build',
    'nice env timeout 5 /bin/rm -rf build',
    // shell keywords and compound commands
    '{ rm -rf build; }',
    'if true; then rm -rf build; fi',
    '! rm -rf build',
    'for f in build; do rm -rf $f; done',
    'while true; do rm -rf build; done',
    'case x in x) rm -rf build;; esac',
    '(cd . && rm -rf build)',
    'echo $(rm -rf build)',
    'echo `rm -rf build`',
    'cat <(rm -rf build)',
    'true | rm -rf build',
    'false || rm -rf build',
    'true && rm -rf build',
    'true; rm -rf build',
    'f() { rm -rf build; }; f',
    'X=$(rm -rf build) true',
    // interpreters taking a command line
    "bash -c 'rm -rf build'",
    "sh -lc 'cd . && rm -rf build'",
    "eval 'rm -rf build'",
    "env -S 'rm -rf build'",
    'find . -name build -exec rm -rf {} ;',
    // quoting tricks
    '"rm" -rf build',
    'r\\m -rf build',
  ])('deny ["rm -rf"] refuses %j in auto mode', async (command) => {
    expect(await decide({ mode: 'auto', deny: ['rm -rf'], command })).toMatchObject(refused);
  });

  it.each([
    'git -C . push',
    'git --no-pager push origin main',
    'git -c k=v push',
    'git --git-dir=.git push',
    'git --git-dir .git --work-tree . push',
    'git -P -c core.x=1 -C sub push --force',
    'git --namespace=x push',
  ])('deny ["git push"] refuses %j', async (command) => {
    expect(await decide({ mode: 'auto', deny: ['git push'], command })).toMatchObject(refused);
  });

  it.each([
    'git -c alias.p=push p',
    'git --config-env=alias.p=P p',
    '$GIT push',
    'git $SUB',
    'bash -c "$CMD"',
    'eval "$CMD"',
    'timeout --unknown-option value 5 git push',
  ])('deny ["git push"] asks %j, even in auto: taskweave cannot tell what it runs', async (command) => {
    expect(await decide({ mode: 'auto', deny: ['git push'], command })).toMatchObject({
      kind: 'ask',
      why: expect.stringMatching(/may run `git push`/),
    });
  });

  it('a command that only looks alike is not refused', async () => {
    for (const command of ['git status', 'echo rm -rf build', 'git pull', 'npm run git push']) {
      expect(await decide({ mode: 'auto', deny: ['git push', 'rm -rf'], command })).toEqual({ kind: 'run' });
    }
  });
});

describe('a line taskweave cannot read', () => {
  it.each([
    ['echo ${A', /not valid shell syntax/],
    [`echo ${'a'.repeat(10 * 1024 * 1024)}`, /too long to check/],
    ['echo "unterminated', /not valid shell syntax/],
  ])(
    '%# is asked in ask and edits, never allowed by a list; auto runs it, or refuses it under a deny list',
    async (command, why) => {
      for (const mode of ['ask', 'edits'] as const) {
        expect(await decide({ mode, allow: ['echo'], command })).toMatchObject({
          kind: 'ask',
          why: expect.stringMatching(why),
        });
      }
      expect(await decide({ mode: 'auto', allow: ['echo'], command })).toEqual({ kind: 'run' });
      expect(await decide({ mode: 'auto', deny: ['rm'], command })).toMatchObject({
        kind: 'refuse',
        message: expect.stringMatching(/cannot check this command line against the deny list/),
      });
      expect(await decide({ mode: 'auto', sandboxMissing: true, command })).toMatchObject({
        kind: 'ask',
        why: expect.stringMatching(why),
      });
    },
  );

  it('the idiom that crashed the old parser is read and runs where the mode says', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template
    expect(await decide({ mode: 'auto', command: 'OUT=${OUT_DIR:-$(pwd)/dist}' })).toEqual({ kind: 'run' });
  });
});

describe('"always" never remembers an interpreter or launcher as a prefix', () => {
  it.each([
    ['bash scripts/build.sh', "bash -c 'touch PWNED'"],
    ['sh build.sh', 'sh -c id'],
    ['python3 setup.py build', "python3 -c 'import os'"],
    ['node scripts/gen.js', 'node -e 1'],
    ['npx prettier --check .', 'npx evil-package'],
    ['env NODE_ENV=test npm test', 'env rm -rf ~'],
    ['xargs echo', 'xargs rm'],
    ['sudo ls', 'sudo rm -rf /'],
    ['perl script.pl', "perl -e 'system 1'"],
    ['npm exec vitest', 'npm exec evil'],
    ['git --version', 'git -c core.pager=evil log'],
    ['find . -name x', 'find . -exec rm {} ;'],
  ])('after "always" on %j, %j is asked again', async (approved, attack) => {
    const remembered = new SessionApprovals();
    expect(await always(remembered, approved)).toBe('Always: this exact command');
    expect(await decide({ remembered, command: approved })).toEqual({ kind: 'run' });
    expect(await decide({ remembered, command: attack })).toMatchObject({ kind: 'ask' });
  });

  it('a plain command is remembered by its program and subcommands, and says so', async () => {
    const remembered = new SessionApprovals();
    expect(await always(remembered, 'npm test')).toBe('Always allow `npm test …`');
    expect(await always(remembered, 'git status --short')).toBe('Always allow `git status …`');
    expect(await decide({ remembered, command: 'npm test -- --watch' })).toEqual({ kind: 'run' });
    expect(await decide({ remembered, command: 'git status' })).toEqual({ kind: 'run' });
    expect(await decide({ remembered, command: 'git push' })).toMatchObject({ kind: 'ask' });
  });
});

describe('options that run code of their own are asked under an allow entry or an "always"', () => {
  it.each([
    ['npm test', 'npm test --node-options=--import=data:text/javascript,process.exit(9)'],
    ['npm test', 'npm test --node-options --require=./evil.js'],
    ['npm test', 'npm test --script-shell=./evil.sh'],
    ['npm test', 'npm test --userconfig=./evil.npmrc'],
    ['npm run build', 'npm run build --script-shell ./evil.sh'],
    ['make', 'make --eval=$(shell id)'],
    ['make', "make -E 'x:=$(shell id)'"],
    ['make', 'make -f /tmp/evil.mk'],
    ['make', 'make SHELL=./evil.sh'],
    ['make test', 'make test CC=./evil'],
    ['node scripts/check.js', 'node scripts/check.js --require ./evil.js'],
    ['git grep', 'git grep -Oevil x'],
    ['git fetch', 'git fetch --upload-pack=./evil origin'],
  ])('allow [%j] asks %j', async (entry, command) => {
    expect(await decide({ allow: [entry], command })).toMatchObject({ kind: 'ask' });
    const remembered = new SessionApprovals();
    await always(remembered, entry);
    expect(await decide({ remembered, command })).toMatchObject({ kind: 'ask' });
  });

  it('the plain forms still run under the entry', async () => {
    expect(await decide({ allow: ['npm test'], command: 'npm test -- --coverage' })).toEqual({ kind: 'run' });
    expect(await decide({ allow: ['make'], command: 'make -j4 build' })).toEqual({ kind: 'run' });
    expect(await decide({ allow: ['npm test'], command: 'nice -n 5 npm test' })).toEqual({ kind: 'run' });
  });

  it('a wrapper never carries another program in under an allow entry', async () => {
    for (const command of [
      'env npm test',
      'env PATH=/tmp/evil npm test',
      'sudo npm test',
      'xargs npm test',
    ]) {
      expect(await decide({ allow: ['npm test'], command })).toMatchObject({ kind: 'ask' });
    }
    for (const command of ['timeout 5 rm -rf ~', 'nice rm -rf ~', 'env rm -rf ~']) {
      expect(await decide({ allow: ['timeout', 'nice', 'env'], command })).toMatchObject({ kind: 'ask' });
    }
  });
});

describe('web_fetch (network calls)', () => {
  const fetchOf = (host: string) => ({ toolName: 'web_fetch', changes: 'network', host }) as const;

  it('runs unasked only in auto with the network on; asks otherwise, naming what allows it', async () => {
    expect(await decide({ ...fetchOf('docs.python.org'), mode: 'auto' })).toEqual({ kind: 'run' });
    expect(await decide({ ...fetchOf('docs.python.org'), mode: 'auto', networkOff: true })).toEqual({
      kind: 'ask',
      allowedBy: '--network',
    });
    expect(await decide({ ...fetchOf('docs.python.org'), mode: 'edits' })).toEqual({
      kind: 'ask',
      allowedBy: '--approval auto --network',
    });
    expect(await decide({ ...fetchOf('docs.python.org'), mode: 'plan-only' })).toMatchObject({
      kind: 'refuse',
    });
  });

  it('the allow list names hosts and domains; the deny list refuses them in every mode', async () => {
    const allow = ['web_fetch:docs.python.org', 'web_fetch:*.nodejs.org'];
    for (const host of ['docs.python.org', 'nodejs.org', 'api.nodejs.org'])
      expect(await decide({ ...fetchOf(host), networkOff: true, allow })).toEqual({ kind: 'run' });
    for (const host of ['python.org', 'evil-nodejs.org', 'docs.python.org.evil.com'])
      expect(await decide({ ...fetchOf(host), networkOff: true, allow })).toMatchObject({ kind: 'ask' });
    const deny = ['web_fetch:*.example.com'];
    expect(await decide({ ...fetchOf('www.example.com'), mode: 'auto', deny })).toMatchObject({
      kind: 'refuse',
    });
  });

  it('"always" remembers the host, not every host', async () => {
    const remembered = new SessionApprovals();
    const scope = alwaysScope(fetchOf('docs.python.org'));
    expect(alwaysLabel(scope)).toBe('Always allow web_fetch of docs.python.org');
    remembered.remember(scope);
    expect(await decide({ ...fetchOf('docs.python.org'), networkOff: true, remembered })).toEqual({
      kind: 'run',
    });
    expect(await decide({ ...fetchOf('pypi.org'), networkOff: true, remembered })).toMatchObject({
      kind: 'ask',
    });
  });
});
