import { describe, expect, it } from 'vitest';
import { alwaysPrefix, commandsOf, parseSimpleCommand } from '../../../src/agent/approval/command-line.js';

describe('parseSimpleCommand (allow-list matching)', () => {
  it('reads one plain command as its words, quotes removed', () => {
    expect(parseSimpleCommand('npm test')).toEqual({ simple: true, words: ['npm', 'test'] });
    expect(parseSimpleCommand(`git commit -m "fix the build"`)).toEqual({
      simple: true,
      words: ['git', 'commit', '-m', 'fix the build'],
    });
  });

  it.each([
    ['npm test; rm -rf ~', /chains commands with `;`/],
    ['npm test && rm -rf ~', /`&&`/],
    ['npm test || rm -rf ~', /`\|\|`/],
    ['npm test | sh', /`\|`/],
    ['npm test & rm -rf ~', /`&`/],
    ['npm test > /etc/passwd', /redirects/],
    ['npm test < input', /redirects/],
    ['npm test 2>&1', /redirects/],
    ['(npm test)', /subshell/],
    ['npm test $(rm -rf ~)', /more than one command/],
    ['npm test `rm -rf ~`', /more than one command/],
    ['npm test\nrm -rf ~', /more than one command/],
    ['npm test $HOME', /variable/],
    ['npm test *.js', /file pattern/],
    ['PATH=/tmp/evil npm test', /environment variables/],
    ['npm test # note', /comment/],
    ['', /empty/],
  ])('refuses %j (%s)', (line, why) => {
    const parsed = parseSimpleCommand(line);
    expect(parsed.simple).toBe(false);
    if (!parsed.simple) expect(parsed.why).toMatch(why);
  });
});

describe('commandsOf (deny-list matching)', () => {
  it('finds every command of a compound line, in subshells and substitutions too', () => {
    expect(commandsOf('npm test && git push origin main')).toEqual([
      ['npm', 'test'],
      ['git', 'push', 'origin', 'main'],
    ]);
    expect(commandsOf('echo $(git push) `git push -f`')).toContainEqual(['git', 'push']);
    expect(commandsOf('echo `git push -f`')).toContainEqual(['git', 'push', '-f']);
    expect(commandsOf('(cd app; GIT_DIR=x /usr/bin/git push)')).toContainEqual(['git', 'push']);
  });
});

describe('alwaysPrefix', () => {
  it('keeps the program and its subcommands, not options, paths or values', () => {
    expect(alwaysPrefix('npm run build')).toEqual(['npm', 'run', 'build']);
    expect(alwaysPrefix('git status --short')).toEqual(['git', 'status']);
    expect(alwaysPrefix('npm test -- --watch')).toEqual(['npm', 'test']);
    expect(alwaysPrefix('ls -la src')).toEqual(['ls']);
  });

  it('has none for a compound line (only the line itself is remembered)', () => {
    expect(alwaysPrefix('npm test; rm -rf ~')).toBeUndefined();
  });
});
