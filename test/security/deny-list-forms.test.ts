import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../src/agent/approval/approval-rules.js';
import { readCommandLine } from '../../src/agent/approval/command-line.js';
import { SessionApprovals } from '../../src/agent/approval/session-approvals.js';

/*
 * Issue 39 items 9 and 20: every form of the round-4 red team against a deny entry, and the
 * forms of rounds 1–2, in one table. The rule: a command the line runs that matches an entry is
 * refused; a line that feeds text to an interpreter or runs a wrapper whose command taskweave
 * cannot read is asked — in every mode, `auto` included; a line that runs a file or a command
 * read exactly runs as the mode says.
 */

type Expected = 'refuse' | 'ask' | 'run';

async function verdict(command: string, deny: string[]): Promise<Expected> {
  const decided = decideApproval({
    mode: 'auto',
    toolName: 'run_command',
    changes: 'command',
    line: await readCommandLine(command),
    allow: [],
    deny,
    sandboxMissing: false,
    remembered: new SessionApprovals(),
  });
  return decided.kind;
}

/** [what the form is, the line, the deny list, what must happen under `--approval auto`]. */
const FORMS: [string, string, string[], Expected][] = [
  // Round 4: the forms that ran under a deny entry before this fix.
  ['a shell fed by a heredoc', 'bash <<EOF\ngit push\nEOF', ['git push'], 'ask'],
  ['a shell fed by a quoted heredoc', "sh <<'EOF'\ngit push origin main\nEOF", ['git push'], 'ask'],
  ['a heredoc git push piped into a shell', 'cat <<EOF | sh\ngit push\nEOF', ['git push'], 'ask'],
  ['a shell fed by a here-string', 'bash <<< "git push"', ['git push'], 'ask'],
  ['a shell fed by a pipe', "echo 'git push' | bash", ['git push'], 'ask'],
  ['a shell fed by a pipe, with options', "printf 'git push' | bash -euo pipefail", ['git push'], 'ask'],
  ['sh -s fed by a pipe', "printf 'git push' | sh -s", ['git push'], 'ask'],
  ['a shell fed by process substitution', 'bash <(echo git push)', ['git push'], 'ask'],
  ['a shell reading /dev/stdin', 'bash /dev/stdin <<< "git push"', ['git push'], 'ask'],
  ['source <(…)', 'source <(echo git push)', ['git push'], 'ask'],
  ['. /dev/stdin <<<', '. /dev/stdin <<< "git push"', ['git push'], 'ask'],
  ['. of a file named by a variable', '. "$F"', ['git push'], 'ask'],
  ['an alias', 'shopt -s expand_aliases\nalias p="git push"\np', ['git push'], 'ask'],
  ['an alias on one line', "alias p='git push'; p", ['git push'], 'ask'],
  ['trap', "trap 'git push' EXIT", ['git push'], 'refuse'],
  ['trap of a variable', 'trap "$CMD" EXIT', ['git push'], 'ask'],
  ['coproc', 'coproc git push', ['git push'], 'refuse'],
  ['coproc with a name', 'coproc p { git push; }', ['git push'], 'ask'],
  ['flock', 'flock /tmp/lock git push', ['git push'], 'ask'],
  ['taskset', 'taskset -c 0 git push', ['git push'], 'ask'],
  ['prlimit', 'prlimit --nofile=1024 git push', ['git push'], 'ask'],
  ['chrt', 'chrt -o 0 git push', ['git push'], 'ask'],
  ['script -c', "script -qc 'git push' /dev/null", ['git push'], 'ask'],
  ['unshare -r', 'unshare -r git push', ['git push'], 'ask'],
  ['strace', 'strace -f -o /dev/null git push', ['git push'], 'ask'],
  ['gdb -ex shell', "gdb -batch -ex 'shell git push'", ['git push'], 'ask'],
  ['fakeroot', 'fakeroot git push', ['git push'], 'ask'],
  ['python -c', 'python3 -c \'import os; os.system("git push")\'', ['git push'], 'ask'],
  [
    'python fed by a heredoc',
    "python3 - <<'EOF'\nimport os\nos.system('git push')\nEOF",
    ['git push'],
    'ask',
  ],
  ['node -e', 'node -e \'require("child_process").execSync("git push")\'', ['git push'], 'ask'],
  ['perl -e in a cluster', "perl -we 'system q(git push)'", ['git push'], 'ask'],
  ['ruby -e', "ruby -e 'system %q(git push)'", ['git push'], 'ask'],
  ['awk system()', 'awk \'BEGIN { system("git push") }\'', ['git push'], 'ask'],
  ['xargs adding the subcommand', 'echo push | xargs git', ['git push'], 'ask'],
  ['bash -euo pipefail -c', "bash -euo pipefail -c 'git push'", ['git push'], 'refuse'],
  ['xargs with a replace string', "printf 'git push' | xargs -I{} sh -c '{}'", ['git push'], 'ask'],
  ['sudo -s fed by a pipe', "echo 'git push' | sudo -s", ['git push'], 'ask'],
  ['su without -c fed by a pipe', "echo 'git push' | su", ['git push'], 'ask'],
  ['npx -c', "npx -c 'git push'", ['git push'], 'refuse'],
  ['npm exec of a program on the PATH', 'npm exec -- git push', ['git push'], 'refuse'],
  ['npx of a variable', 'npx "$TOOL"', ['git push'], 'ask'],
  ['git submodule foreach', "git submodule foreach 'git push'", ['git push'], 'ask'],
  ['git rebase --exec', "git rebase --exec 'git push' HEAD~1", ['git push'], 'ask'],
  ['git bisect run', 'git bisect run sh -c "git push"', ['git push'], 'ask'],
  // Item 20: find -delete and unlink are rm.
  ['find -delete', 'find . -name keep.txt -delete', ['rm'], 'refuse'],
  ['find -delete under rm -rf', 'find build -delete', ['rm -rf'], 'ask'],
  ['find with a word only bash knows', 'find . $ACTION', ['rm'], 'ask'],
  ['unlink', 'unlink keep.txt', ['rm'], 'refuse'],
  ['find -exec rm', 'find . -name x -exec rm {} +', ['rm'], 'refuse'],
  // Rounds 1–2: forms that held and must keep holding.
  ['env', 'env FOO=1 git push', ['git push'], 'refuse'],
  ['nice and timeout', 'nice -n 5 timeout 5 git push', ['git push'], 'refuse'],
  ['nohup, setsid, stdbuf, time', 'nohup setsid stdbuf -oL time git push', ['git push'], 'refuse'],
  ['command and exec', 'command exec git push', ['git push'], 'refuse'],
  ['sudo', 'sudo -u root git push', ['git push'], 'refuse'],
  ['xargs with the whole command', 'echo x | xargs git push', ['git push'], 'refuse'],
  ['a list', 'npm test && git push', ['git push'], 'refuse'],
  ['a subshell', '(cd . && git push)', ['git push'], 'refuse'],
  ['a block', '{ git push; }', ['git push'], 'refuse'],
  ['if/for/while/case', 'for x in 1; do if true; then git push; fi; done', ['git push'], 'refuse'],
  ['a function', 'f() { git push; }; f', ['git push'], 'refuse'],
  ['command substitution', 'echo $(git push) `git push`', ['git push'], 'refuse'],
  ['a heredoc with a command substitution', 'cat <<EOF\n$(git push)\nEOF', ['git push'], 'refuse'],
  ['process substitution', 'cat <(git push)', ['git push'], 'refuse'],
  ['bash -c', "bash -c 'git push'", ['git push'], 'refuse'],
  ['sh -lc', "sh -lc 'cd . && git push'", ['git push'], 'refuse'],
  ['eval', "eval 'git push'", ['git push'], 'refuse'],
  ['env -S', "env -S 'git push'", ['git push'], 'refuse'],
  ['watch', "watch -n 1 'git push'", ['git push'], 'refuse'],
  ['su -c', "su -c 'git push' me", ['git push'], 'refuse'],
  ['a full path', '/usr/bin/git push', ['git push'], 'refuse'],
  ['quotes and escapes', '"git" p\\ush', ['git push'], 'refuse'],
  ["git's global options", 'git -C . --no-pager -c k=v --git-dir=.git push', ['git push'], 'refuse'],
  ['after !', '! git push', ['git push'], 'refuse'],
  ['while and case', 'while true; do case x in x) git push;; esac; done', ['git push'], 'refuse'],
  ['a pipeline and ||', 'true | git push || false', ['git push'], 'refuse'],
  ['an assignment of a substitution', 'X=$(git push) true', ['git push'], 'refuse'],
  ['git -P -c -C with options after', 'git -P -c core.x=1 -C sub push --force', ['git push'], 'refuse'],
  ['git --namespace', 'git --namespace=x push', ['git push'], 'refuse'],
  ['rm -rf behind four wrappers', 'nice env timeout 5 /bin/rm -rf build', ['rm -rf'], 'refuse'],
  ['a git alias on the command line', 'git -c alias.p=push p', ['git push'], 'ask'],
  ['a git alias through --config-env', 'git --config-env=alias.p=P p', ['git push'], 'ask'],
  ['a git subcommand named by a variable', 'git $SUB', ['git push'], 'ask'],
  ['eval of a variable', 'eval "$CMD"', ['git push'], 'ask'],
  ['a wrapper option not known', 'timeout --unknown-option value 5 git push', ['git push'], 'ask'],
  ['a program named by a variable', '$GIT push', ['git push'], 'ask'],
  ['bash -c of a variable', 'bash -c "$CMD"', ['git push'], 'ask'],
  // What still runs under a deny list: files and commands read exactly.
  ['an interpreter running a file', 'python3 setup.py build', ['git push'], 'run'],
  ['a shell running a script', 'bash scripts/build.sh', ['git push'], 'run'],
  ['a shell with options running a script', 'bash -euo pipefail scripts/build.sh', ['git push'], 'run'],
  ['data piped into a script', 'cat data.json | python3 tools/check.py', ['git push'], 'run'],
  ['node with a loader and a file', 'node --import tsx scripts/gen.ts', ['git push'], 'run'],
  ['awk with a program file', 'awk -f report.awk log.txt', ['git push'], 'run'],
  ['source of a file', 'source ./env.sh && npm test', ['git push'], 'run'],
  ['a wrapper read exactly', 'timeout 60 npm test', ['git push'], 'run'],
  ['bash -c of a harmless line', "bash -c 'npm test'", ['git push'], 'run'],
  ['trap of a harmless line', "trap 'rm -f tmp.txt' EXIT; npm test", ['git push'], 'run'],
  ['find without -delete', 'find . -name "*.ts"', ['rm'], 'run'],
  ['npx of a package', 'npx prettier --check .', ['git push'], 'run'],
  ['a git rebase without --exec', 'git rebase main', ['git push'], 'run'],
  ['sudo -v', 'sudo -v', ['git push'], 'run'],
];

describe('the deny list against every known form (issue 39 items 9 and 20), --approval auto', () => {
  it.each(FORMS)('%s: %j with deny %j is %s', async (_, command, deny, expected) => {
    expect(await verdict(command, deny)).toBe(expected);
  });

  it('an asked form says why nothing lets it run unasked', async () => {
    const decided = decideApproval({
      mode: 'auto',
      toolName: 'run_command',
      changes: 'command',
      line: await readCommandLine("echo 'git push' | bash"),
      allow: ['echo', 'bash'],
      deny: ['git push'],
      sandboxMissing: false,
      remembered: new SessionApprovals(),
    });
    expect(decided).toMatchObject({ kind: 'ask', why: expect.stringMatching(/may run `git push`/) });
  });

  it('without a deny list the forms run as the mode says: the sandbox confines them', async () => {
    for (const command of ["echo 'git push' | bash", 'python3 -c 1', 'flock /tmp/l make']) {
      expect(await verdict(command, [])).toBe('run');
    }
  });
});
