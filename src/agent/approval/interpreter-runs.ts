import type { ShellWord } from './shell-syntax.js';

/**
 * What the deny list makes of interpreters and of wrappers whose command it cannot read. An
 * interpreter that runs a file (`python3 setup.py`, `bash build.sh`) runs the project's code, as
 * `npm test` does: nothing to see on the line. One fed its code as text — on the command line
 * (`python3 -c`, `node -e`, `awk '…'`), or from standard input, which a pipe, a heredoc, a
 * here-string, `/dev/stdin` or a process substitution fills — runs something the line does not
 * show as commands: an unknown command (`[undefined]`), which every deny entry may be.
 */

/** How an interpreter takes its program: options giving code, reading stdin, taking a value. */
interface InterpreterSpec {
  /** Options whose value is code (`-c`, `-e`, `--eval`); also matched inside a short cluster when `clustered`. */
  code: readonly string[];
  clustered?: boolean;
  /** Options that make it read code from stdin even with a file (`python3 -i`). */
  stdin?: readonly string[];
  /** Options that take the next word as their value. */
  valued?: readonly string[];
  /** The program is the first argument unless one of these options names a file (awk). */
  programFirst?: { fileOptions: readonly string[] };
}

const NODE: InterpreterSpec = {
  code: ['-e', '--eval', '-p', '--print'],
  stdin: ['-i', '--interactive'],
  valued: [
    '-r',
    '--require',
    '--import',
    '--loader',
    '--experimental-loader',
    '-C',
    '--conditions',
    '--input-type',
    '--title',
    '--env-file',
    '--inspect-port',
    '--watch-path',
  ],
};
const PYTHON: InterpreterSpec = {
  code: ['-c'],
  clustered: true,
  stdin: ['-i'],
  valued: ['-W', '-X', '--check-hash-based-pycs'],
};
const AWK: InterpreterSpec = {
  code: ['-e', '--source'],
  valued: ['-F', '-v', '-f', '--file', '--field-separator', '--assign', '-E', '--exec', '-i', '--include'],
  programFirst: { fileOptions: ['-f', '--file', '-E', '--exec'] },
};

const INTERPRETERS: Record<string, InterpreterSpec> = {
  node: NODE,
  nodejs: NODE,
  bun: { code: ['-e', '--eval', '-p', '--print'] },
  deno: { code: ['eval', 'repl'] },
  perl: { code: ['-e', '-E'], clustered: true, valued: ['-I', '-M', '-m', '-x'] },
  ruby: { code: ['-e'], clustered: true, valued: ['-I', '-r', '-C', '-E', '--encoding'] },
  php: { code: ['-r', '-R', '-B', '-E', '-a'], valued: ['-c', '-d', '-z'] },
  lua: { code: ['-e', '-i'], valued: ['-l'] },
  luajit: { code: ['-e', '-i'], valued: ['-l', '-j', '-O'] },
  Rscript: { code: ['-e'] },
  tclsh: { code: [] },
  osascript: { code: ['-e'] },
  pwsh: { code: ['-c', '-Command', '-EncodedCommand', '-e'] },
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
};

/** Paths that are a process's standard input or another open file of it. */
const STDIN_PATHS = /^(-|\/dev\/stdin|\/dev\/fd\/.*|\/proc\/[^/]+\/fd\/.*)$/;

/**
 * Programs that run the command in their arguments with options taskweave does not read one by
 * one (`flock`, `taskset`, `prlimit`, `chrt`, `script -c`, `unshare`, `strace`, `gdb -ex shell`,
 * `fakeroot`…): what they run is unknown, so the line may run any deny entry.
 */
const UNREAD_WRAPPERS = new Set([
  'flock',
  'taskset',
  'prlimit',
  'chrt',
  'script',
  'unshare',
  'nsenter',
  'strace',
  'ltrace',
  'gdb',
  'lldb',
  'valgrind',
  'fakeroot',
  'fakechroot',
  'faketime',
  'firejail',
  'bwrap',
  'chroot',
  'proot',
  'runuser',
  'setpriv',
  'capsh',
  'sg',
  'pkexec',
  'systemd-run',
  'dbus-run-session',
  'xvfb-run',
  'catchsegv',
  'numactl',
  'cgexec',
  'cpulimit',
  'unbuffer',
  'expect',
  'parallel',
  'entr',
  'rlwrap',
  'torsocks',
  'proxychains',
  'proxychains4',
  'sshpass',
  'ssh',
  'tmux',
  'screen',
  'at',
  'batch',
  'crontab',
  'start-stop-daemon',
  'daemonize',
  'run-parts',
  'linux32',
  'linux64',
  'setarch',
  'perf',
  'coproc',
]);

/** Shell builtins that keep text to run later or change what later words mean. */
const DEFERRED_CODE = new Set(['alias', 'bind', 'complete', 'compgen', 'enable', 'fc']);

/** An unknown command: matches every deny entry as a `maybe`. */
const UNKNOWN: ShellWord[][] = [[undefined]];

/** Whether the program is one whose command taskweave cannot read (an unread wrapper, an interpreter). */
export function isOpaqueProgram(program: string): boolean {
  return UNREAD_WRAPPERS.has(program) || interpreterSpec(program) !== undefined;
}

/**
 * What an interpreter or an unread wrapper runs, as the deny list sees it: nothing visible for
 * an interpreter that runs a file, an unknown command otherwise; undefined when the program is
 * neither.
 */
export function opaqueRuns(program: string, args: readonly ShellWord[]): ShellWord[][] | undefined {
  if (UNREAD_WRAPPERS.has(program)) return UNKNOWN;
  if (DEFERRED_CODE.has(program)) return args.length === 0 ? [] : UNKNOWN;
  const spec = interpreterSpec(program);
  if (spec === undefined) return undefined;
  return runsCodeText(spec, args) ? UNKNOWN : [];
}

/**
 * What a shell without `-c` runs: a file (nothing to see), or text from stdin (`-s`, no file,
 * `/dev/stdin`, a process substitution, a file named by a variable).
 */
export function shellProgramRuns(args: readonly ShellWord[], valued: ReadonlySet<string>): ShellWord[][] {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    if (word === undefined) return UNKNOWN;
    if (word === '--') return fileRuns(args[index + 1]);
    if (/^-[A-Za-z]*[si]/.test(word)) return UNKNOWN;
    if (/^[-+]/.test(word) && word !== '-') {
      if (takesValue(word, valued)) index += 1;
      continue;
    }
    return fileRuns(word);
  }
  return UNKNOWN;
}

/** Whether a shell option takes the next word: a valued one, or a cluster ending in `o`/`O` (`-euo pipefail`). */
export function takesValue(word: string, valued: ReadonlySet<string>): boolean {
  return valued.has(word) || /^[-+][A-Za-z]*[oO]$/.test(word);
}

/** What `source FILE` / `. FILE` runs: a file, or text from stdin or a process substitution. */
export function sourcedRuns(args: readonly ShellWord[]): ShellWord[][] {
  if (args.length === 0) return [];
  return fileRuns(args[0] === '--' ? args[1] : args[0]);
}

function fileRuns(file: ShellWord): ShellWord[][] {
  return file === undefined || STDIN_PATHS.test(file) ? UNKNOWN : [];
}

function interpreterSpec(program: string): InterpreterSpec | undefined {
  if (/^(python|pypy)[0-9.]*$/.test(program)) return PYTHON;
  return Object.hasOwn(INTERPRETERS, program) ? INTERPRETERS[program] : undefined;
}

/**
 * Whether the interpreter is given code as text rather than a file. A code option anywhere
 * counts (an option's value taken for a file must not hide a later `-e`).
 */
function runsCodeText(spec: InterpreterSpec, args: readonly ShellWord[]): boolean {
  const valued = new Set(spec.valued ?? []);
  let file: ShellWord | null = null;
  let fileOption = false;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    if (word === undefined) return true;
    if (isCodeOption(spec, word) || spec.stdin?.includes(word)) return true;
    if (spec.programFirst?.fileOptions.some((option) => word === option || word.startsWith(`${option}=`)))
      fileOption = true;
    if (word.startsWith('-') && word !== '-') {
      if (valued.has(word)) index += 1;
      continue;
    }
    if (file === null) file = word;
  }
  if (spec.programFirst) return !fileOption;
  return file === null || STDIN_PATHS.test(file);
}

function isCodeOption(spec: InterpreterSpec, word: string): boolean {
  for (const option of spec.code) {
    if (word === option) return true;
    if (option.startsWith('--') && word.startsWith(`${option}=`)) return true;
    if (/^-[A-Za-z]$/.test(option) && word.startsWith(option) && !word.startsWith('--')) return true;
    if (
      spec.clustered &&
      /^-[A-Za-z]$/.test(option) &&
      /^-[A-Za-z]+$/.test(word) &&
      word.includes(option[1] ?? '')
    )
      return true;
  }
  return false;
}
