import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const exec = promisify(execFile);

/** What bash offers after `words` (the last one being completed), with the generated script loaded. */
async function bashCompletions(script: string, words: string[]): Promise<string[]> {
  const program = `${script}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_taskweave
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await exec('bash', ['-c', program], { cwd: '/' });
  return stdout.split('\n').filter((line) => line !== '');
}

describe('taskweave completion', () => {
  it('bash completes commands, subcommands and each command’s own options', async () => {
    const { code, stdout: script } = await runCli(['completion', 'bash']);
    expect(code).toBe(0);
    expect(await bashCompletions(script, ['taskweave', 'r'])).toEqual(['run', 'resume', 'redo', 'rewind']);
    expect(await bashCompletions(script, ['taskweave', 'tasks', 'a'])).toEqual(['add']);
    expect(await bashCompletions(script, ['taskweave', 'run', '--ver'])).toEqual(['--verbose']);
    expect(await bashCompletions(script, ['taskweave', 'sessions', 'show', '--f'])).toEqual(['--full']);
    expect(await bashCompletions(script, ['taskweave', 'run', '--inter'])).toEqual(['--interrupt']);
  });

  it('zsh loads the bash function through bashcompinit; fish lists commands and options; other shells are refused', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef taskweave\nautoload -U \+X bashcompinit && bashcompinit\n/);
    expect(zsh.stdout).toContain('complete -o filenames -F _taskweave taskweave');
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c taskweave -f -n '__fish_use_subcommand' -a run -d");
    expect(fish.stdout).toMatch(/-n '__fish_seen_subcommand_from run' -l verbose -s v /);
    const tcsh = await runCli(['completion', 'tcsh']);
    expect(tcsh.code).toBe(2);
    expect(tcsh.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});
