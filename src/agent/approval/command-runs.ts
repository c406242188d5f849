import path from 'node:path';
import {
  isOpaqueProgram,
  opaqueRuns,
  shellProgramRuns,
  sourcedRuns,
  takesValue,
} from './interpreter-runs.js';
import {
  gitRunsCommand,
  type LaunchedCommand,
  packageRunnerCommand,
  switchedUserShell,
  xargsReplaced,
} from './launcher-runs.js';
import type { ShellWord } from './shell-syntax.js';

/**
 * Programs that run the command given after their own options: the deny list looks at that
 * command too (`timeout 5 git push` runs `git push`). `valued` are the options that take the
 * next word as their value; `positional` counts the words before the command (timeout's
 * duration); `assignments`: `NAME=value` words come before the command.
 */
interface WrapperSpec {
  valued?: readonly string[];
  positional?: number;
  assignments?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir'], assignments: true },
  command: {},
  builtin: {},
  exec: { valued: ['-a'] },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: {},
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: {},
  time: { valued: ['-f', '--format', '-o', '--output'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  xargs: {
    valued: [
      '-a',
      '--arg-file',
      '-d',
      '--delimiter',
      '-E',
      '-I',
      '-L',
      '--max-lines',
      '-n',
      '--max-args',
      '-P',
      '--max-procs',
      '-s',
      '--max-chars',
      '--process-slot-var',
    ],
  },
  sudo: {
    valued: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-C',
      '--close-from',
      '-D',
      '--chdir',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-r',
      '--role',
      '-t',
      '--type',
      '-U',
      '--other-user',
      '-T',
      '--command-timeout',
      '-R',
      '--chroot',
    ],
    assignments: true,
  },
  doas: { valued: ['-u', '-C'] },
  busybox: {},
};

/** Shells: `-c` (alone or in a cluster such as `-lc`) takes a command line, which is read too. */
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh']);
/** Shell options that take the next word as their value. */
const SHELL_VALUED = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/** find's actions that run a command, up to `;` or `+`. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** What find's `-delete` and `unlink` do, as the deny list sees it: an `rm` of files it cannot name. */
const REMOVES: ShellWord[] = ['rm', undefined];

/** git's global options that take the next word as their value (`git -C dir push`). */
const GIT_VALUED = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--attr-source',
  '--exec-path',
  '--list-cmds',
]);
/** git's global options that stand alone. */
const GIT_FLAGS = new Set([
  '-p',
  '--paginate',
  '-P',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-optional-locks',
  '--no-advice',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--html-path',
  '--man-path',
  '--info-path',
  '--version',
  '--help',
  '-h',
]);

/** How deep wrappers and `bash -c` strings are followed; deeper is not seen (asked with a deny list). */
const MAX_DEPTH = 6;

/** A command line found inside a command (`bash -c '…'`, `eval …`, `env -S '…'`, `watch '…'`). */
export type ReadLine = (line: string, depth: number) => ShellWord[][];

/**
 * Every command a simple command runs, as the deny list sees it: the command itself (program
 * by its base name), the command its wrappers run (`env`, `nice`, `timeout`, `xargs`, `sudo`…),
 * the command line of `bash -c`/`eval`, find's `-exec`, and git with its global options left
 * out (`git -C . --no-pager push` is `git push`). A command taskweave cannot know (a program
 * named by a variable, `git -c alias.p=push p`) has an undefined word where it is unknown.
 */
export function commandsRun(words: ShellWord[], readLine: ReadLine, depth = 0): ShellWord[][] {
  if (words.length === 0) return [];
  const program = words[0] === undefined ? undefined : path.basename(words[0]);
  const self: ShellWord[] = [program, ...words.slice(1)];
  if (depth > MAX_DEPTH) return [self, [undefined]];
  if (program === undefined) return [self];
  if (program === 'git') {
    const git = gitCommand(self);
    return gitRunsCommand(git) ? [self, git, [undefined]] : [self, git];
  }
  const inner = innerOf(program, self.slice(1), readLine, depth);
  return [self, ...inner];
}

function innerOf(program: string, args: ShellWord[], readLine: ReadLine, depth: number): ShellWord[][] {
  const wrapper = WRAPPERS[program];
  if (wrapper) {
    if (program === 'env') {
      const split = splitString(args);
      if (split !== null) return split === undefined ? [[undefined]] : readLine(split, depth + 1);
    }
    const command = afterOptions(args, wrapper);
    if (command === undefined || switchedUserShell(program, args, command)) return [[undefined]];
    if (program !== 'xargs' || command.length === 0) return commandsRun(command, readLine, depth + 1);
    // xargs adds words read from its input: `echo push | xargs git` is `git push`.
    return commandsRun([...xargsReplaced(args, command), undefined], readLine, depth + 1);
  }
  if (SHELLS.has(program)) {
    const line = shellCommandString(args);
    if (line === null) return shellProgramRuns(args, SHELL_VALUED);
    return line === undefined ? [[undefined]] : readLine(line, depth + 1);
  }
  if (program === 'eval' || program === 'watch') {
    const rest = program === 'watch' ? afterOptions(args, { valued: ['-n', '--interval'] }) : args;
    if (rest === undefined || rest.some((word) => word === undefined)) return [[undefined]];
    return readLine(rest.join(' '), depth + 1);
  }
  if (program === 'trap') return trapAction(args, readLine, depth);
  if (program === 'source' || program === '.') return sourcedRuns(args);
  if (program === 'su') {
    const index = args.findIndex((word) => word === '-c' || word === '--command');
    if (index < 0) return switchedUserShell(program, args, []) ? [[undefined]] : [];
    const line = args[index + 1];
    return line === undefined ? [[undefined]] : readLine(line, depth + 1);
  }
  if (program === 'find') return findExecs(args, readLine, depth);
  const launched = packageRunnerCommand(program, args);
  if (launched !== undefined) return launchedRuns(launched, readLine, depth);
  if (program === 'unlink') return [['rm', ...args]];
  const opaque = opaqueRuns(program, args);
  if (opaque === undefined) return [];
  // `coproc git push` runs its words as a command: refused by an entry that names them.
  return program === 'coproc' ? [...opaque, ...commandsRun(args, readLine, depth + 1)] : opaque;
}

function launchedRuns(launched: LaunchedCommand, readLine: ReadLine, depth: number): ShellWord[][] {
  if (launched === 'unknown') return [[undefined]];
  if ('words' in launched) return commandsRun(launched.words, readLine, depth + 1);
  return launched.line === undefined ? [[undefined]] : readLine(launched.line, depth + 1);
}

/** The command line `trap '…' SIGNAL` runs when the signal comes (or the shell exits). */
function trapAction(args: ShellWord[], readLine: ReadLine, depth: number): ShellWord[][] {
  const rest = args[0] === '--' ? args.slice(1) : args;
  const action = rest[0];
  if (rest.length < 2 || action === '-' || action === '') return [];
  if (action === undefined) return [[undefined]];
  if (action.startsWith('-')) return [];
  return readLine(action, depth + 1);
}

/** The words after a wrapper's options, assignments and positional words; undefined when unknown. */
function afterOptions(args: ShellWord[], spec: WrapperSpec): ShellWord[] | undefined {
  const valued = new Set(spec.valued ?? []);
  let index = 0;
  while (index < args.length) {
    const word = args[index];
    if (word === undefined) return undefined;
    if (word === '--') {
      index += 1;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    index += 1;
    if (word.startsWith('--')) {
      if (!word.includes('=') && valued.has(word)) index += 1;
      continue;
    }
    // A cluster of short options: the first that takes a value takes the rest of the word, or the next.
    for (let at = 1; at < word.length; at += 1) {
      if (valued.has(`-${word[at]}`)) {
        if (at === word.length - 1) index += 1;
        break;
      }
    }
  }
  if (spec.assignments) {
    while (index < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[index] ?? '')) index += 1;
    if (args[index] === undefined && index < args.length) return undefined;
  }
  index += spec.positional ?? 0;
  return args.slice(index);
}

/** `env -S '…'` / `--split-string=…`: the string (undefined when unknown); null when there is none. */
function splitString(args: ShellWord[]): string | undefined | null {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    if (word === undefined) return undefined;
    if (word === '-S' || word === '--split-string') return args[index + 1];
    if (word.startsWith('--split-string=')) return word.slice('--split-string='.length);
    if (/^-[^-]*S/.test(word)) {
      const rest = word.slice(word.indexOf('S') + 1);
      return rest === '' ? args[index + 1] : rest;
    }
    if (!word.startsWith('-')) return null;
  }
  return null;
}

/** The command string of `bash -c '…'` (undefined when unknown); null when the shell runs no `-c`. */
function shellCommandString(args: ShellWord[]): string | undefined | null {
  let wantsCommand = false;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    if (word === undefined) return wantsCommand ? undefined : null;
    if (word === '--' || word === '-') {
      return wantsCommand ? args[index + 1] : null;
    }
    if (/^[-+]/.test(word)) {
      if (takesValue(word, SHELL_VALUED)) index += 1;
      else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(word)) wantsCommand = true;
      continue;
    }
    return wantsCommand ? word : null;
  }
  return wantsCommand ? undefined : null;
}

/** The commands of find's `-exec … ;` actions, and `-delete` as an `rm`. */
function findExecs(args: ShellWord[], readLine: ReadLine, depth: number): ShellWord[][] {
  const found: ShellWord[][] = [];
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    // A word only bash knows may be `-delete` or `-exec`.
    if (word === undefined) found.push([undefined]);
    if (word === '-delete') found.push(REMOVES);
    if (word === undefined || !FIND_EXEC.has(word)) continue;
    let end = index + 1;
    while (end < args.length && args[end] !== ';' && args[end] !== '+') end += 1;
    found.push(...commandsRun(args.slice(index + 1, end), readLine, depth + 1));
    index = end;
  }
  return found;
}

/**
 * git with its global options left out: `git -C . -c k=v --no-pager push` is `git push`. An
 * alias set on the command line (`-c alias.p=push`, `--config-env=alias.…`) or an option not
 * known here makes the subcommand unknown.
 */
export function gitCommand(words: ShellWord[]): ShellWord[] {
  let index = 1;
  let unknown = false;
  while (index < words.length) {
    const word = words[index];
    if (word === undefined) return ['git', undefined];
    if (!word.startsWith('-')) break;
    const [name, value] = word.startsWith('--') && word.includes('=') ? splitOnce(word) : [word, undefined];
    if (GIT_VALUED.has(name)) {
      const given = value ?? words[index + 1];
      if (given === undefined) return ['git', undefined];
      if ((name === '-c' || name === '--config-env') && /^alias\./i.test(given)) unknown = true;
      index += value === undefined ? 2 : 1;
      continue;
    }
    if (GIT_FLAGS.has(name)) {
      index += 1;
      continue;
    }
    return ['git', undefined];
  }
  return unknown ? ['git', undefined] : ['git', ...words.slice(index)];
}

function splitOnce(word: string): [string, string] {
  const at = word.indexOf('=');
  return [word.slice(0, at), word.slice(at + 1)];
}

/** Whether a program runs the command given in its arguments (the deny list looks inside). */
export function isWrapper(program: string): boolean {
  return (
    program in WRAPPERS ||
    SHELLS.has(program) ||
    program === 'eval' ||
    program === 'find' ||
    isOpaqueProgram(program)
  );
}

/** Wrappers that change how a command runs, not what runs or with which rights or environment. */
const HARMLESS_WRAPPERS = new Set([
  'time',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'setsid',
  'ionice',
  'command',
  'exec',
]);

/**
 * A plain command's words without its harmless wrappers (`nice -n 5 npm test` is `npm test`);
 * undefined when a wrapper's options are not all readable. `env`, `sudo`, `xargs` and the
 * like are kept: they change the environment, the user or the arguments.
 */
export function withoutHarmlessWrappers(words: readonly string[]): string[] | undefined {
  let current: readonly ShellWord[] = words;
  for (let depth = 0; depth <= MAX_DEPTH; depth += 1) {
    const program = current[0];
    if (program === undefined) return undefined;
    if (!HARMLESS_WRAPPERS.has(path.basename(program))) {
      return current.every((word) => word !== undefined) ? (current as string[]) : undefined;
    }
    const inner = afterOptions(current.slice(1), WRAPPERS[path.basename(program)] ?? {});
    if (inner === undefined || inner.length === 0) return undefined;
    current = inner;
  }
  return undefined;
}
