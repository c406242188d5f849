import path from 'node:path';
import type { ChangeKind } from '../../tools/approval.js';
import type { CommandLine } from './command-line.js';
import { plainWords } from './plain-command.js';

/** The most words an "always" prefix keeps (`npm run build`). */
export const MAX_PREFIX_WORDS = 3;

/** What an "always" answer remembers for the rest of the session. */
export type AlwaysScope =
  | { kind: 'files' }
  | { kind: 'tool'; name: string }
  /** Calls of this network tool to this host (web_fetch of docs.python.org). */
  | { kind: 'host'; tool: string; host: string }
  /** Commands whose words begin with these (`npm test` allows `npm test -- --watch`). */
  | { kind: 'prefix'; words: string[] }
  /** Only this command line, character for character. */
  | { kind: 'exact'; command: string };

/**
 * Interpreters and launchers: what they run is in their arguments, so a prefix of them would
 * allow anything (`bash scripts/build.sh` → `bash -c '…'`). An "always" for them remembers the
 * exact line only.
 */
const LAUNCHERS = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'yash',
  'busybox',
  'node',
  'nodejs',
  'npx',
  'pnpx',
  'bunx',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'perl',
  'ruby',
  'php',
  'lua',
  'luajit',
  'tclsh',
  'Rscript',
  'java',
  'osascript',
  'pwsh',
  'powershell',
  'env',
  'xargs',
  'sudo',
  'doas',
  'su',
  'runuser',
  'pkexec',
  'exec',
  'eval',
  'command',
  'builtin',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'setsid',
  'time',
  'ionice',
  'chrt',
  'taskset',
  'flock',
  'watch',
  'nsenter',
  'unshare',
  'chroot',
  'systemd-run',
  'script',
  'parallel',
  'ssh',
  'find',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'uvx',
]);

/** `python`, `python3`, `python3.12`, `pypy3`… */
const PYTHON = /^(python|pypy)[0-9.]*$/;

/** Subcommands that launch a program named in their arguments (`npm exec`, `docker run`). */
const LAUNCHING_SUBCOMMANDS: Record<string, readonly string[]> = {
  npm: ['exec', 'x', 'explore'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
  uv: ['run', 'tool'],
  poetry: ['run'],
  pipenv: ['run'],
  pdm: ['run'],
  hatch: ['run'],
  go: ['run'],
  cargo: ['run'],
  docker: ['run', 'exec'],
  podman: ['run', 'exec'],
  kubectl: ['exec', 'run'],
  nix: ['run', 'shell', 'develop'],
};

/** Programs with subcommands: never remembered by their name alone (`git` would allow `git -c …`). */
const NEVER_ALONE = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'uv',
  'pip',
  'pip3',
  'poetry',
  'cargo',
  'go',
  'docker',
  'podman',
  'kubectl',
  'gh',
  'nix',
]);

/** Whether a program runs code named in its arguments, so it is never remembered as a prefix. */
export function isLauncher(program: string): boolean {
  const name = path.basename(program);
  return LAUNCHERS.has(name) || PYTHON.test(name);
}

/**
 * What "always" would remember for a call, computed once, sent with the request and shown on
 * its button: all file changes, an MCP tool, a network tool's host, or for a command the program and its subcommands
 * up to the first option, path or value (`npm run build`, `git status`), at most
 * MAX_PREFIX_WORDS — except for interpreters and launchers, lines that are not one plain
 * command, and lines that cannot be read, where only the exact line is remembered.
 */
export function alwaysScope(call: {
  toolName: string;
  changes: ChangeKind;
  line?: CommandLine;
  host?: string;
}): AlwaysScope {
  if (call.changes === 'files') return { kind: 'files' };
  if (call.changes === 'network' && call.host !== undefined)
    return { kind: 'host', tool: call.toolName, host: call.host };
  if (call.changes !== 'command') return { kind: 'tool', name: call.toolName };
  const line = call.line;
  const exact: AlwaysScope = { kind: 'exact', command: line?.text ?? '' };
  const words = line && plainWords(line);
  if (!words) return exact;
  const prefix = commandPrefix(words);
  return prefix ? { kind: 'prefix', words: prefix } : exact;
}

function commandPrefix(words: readonly string[]): string[] | undefined {
  const [program, ...rest] = words;
  if (program === undefined || isLauncher(program)) return undefined;
  const prefix = [program];
  for (const word of rest) {
    if (prefix.length >= MAX_PREFIX_WORDS || !/^[a-z][a-z0-9:_-]*$/i.test(word)) break;
    prefix.push(word);
  }
  const name = path.basename(program);
  if (prefix.length === 1 && NEVER_ALONE.has(name)) return undefined;
  if (LAUNCHING_SUBCOMMANDS[name]?.includes(prefix[1] ?? '')) return undefined;
  return prefix;
}

/** The button's label, the same on the web and the terminal. */
export function alwaysLabel(scope: AlwaysScope): string {
  switch (scope.kind) {
    case 'files':
      return 'Always allow file changes';
    case 'tool':
      return `Always allow ${scope.name}`;
    case 'host':
      return `Always allow ${scope.tool} of ${scope.host}`;
    case 'prefix':
      return `Always allow \`${scope.words.join(' ')} …\``;
    case 'exact':
      return 'Always: this exact command';
  }
}
