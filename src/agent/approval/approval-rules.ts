import { fillSection } from '../../prompts/template.js';
import type { ApprovalMode, ChangeKind } from '../../tools/approval.js';
import { codeRunningOption } from './code-running-options.js';
import { type CommandLine, denyMatch, entryWords, startsWithWords } from './command-line.js';
import { plainCommand } from './plain-command.js';
import type { SessionApprovals } from './session-approvals.js';

/** What the approval rules say about one call. */
export type ApprovalVerdict =
  | { kind: 'run' }
  /**
   * Ask the user; `allowedBy` says what would have let it run unasked (for a run nobody can
   * ask), or `why` says why nothing would (a line that cannot be read, a deny entry it may hit).
   */
  | { kind: 'ask'; allowedBy: string; why?: string }
  | { kind: 'refuse'; message: string };

/** One call as the rules see it. */
export interface ApprovalQuestion {
  mode: ApprovalMode;
  toolName: string;
  changes: ChangeKind;
  /** The command line, read, for `command` calls. */
  line?: CommandLine;
  /** The host a `network` call reaches (web_fetch's URL), lower case. */
  host?: string;
  allow: readonly string[];
  deny: readonly string[];
  /**
   * The sandbox was wanted but bubblewrap cannot be used here: commands are asked even in
   * `auto` (not so with `--sandbox off`, the user's explicit choice).
   */
  sandboxMissing: boolean;
  /**
   * Sandboxed commands may not reach the network (`--network` not given): `network` calls are
   * asked even in `auto`.
   */
  networkOff?: boolean;
  /** "Always" answers given in this session. */
  remembered: SessionApprovals;
}

/** The template of what the model reads when a call is not run (src/prompts/approval.md). */
export const APPROVAL_TEXTS = 'approval';

/**
 * Decides whether a call runs, is asked, or is refused. The deny list wins over everything,
 * `plan-only` refuses every change; a command line that cannot be read is asked (in `auto`:
 * run, or refused under a deny list); one that may run a denied command in a way taskweave
 * cannot see is asked in every mode; the allow list and
 * "always" answers let a call run unasked; otherwise the mode decides: `ask` asks every change,
 * `edits` runs file changes, `auto` runs everything, commands inside the sandbox (asked when
 * the sandbox is wanted but missing).
 */
export function decideApproval(question: ApprovalQuestion): ApprovalVerdict {
  const { mode, changes, line } = question;
  if (changes === 'none') return { kind: 'run' };
  const denied = deniedBy(question);
  if (denied?.match === 'yes') {
    return {
      kind: 'refuse',
      message: fillSection(APPROVAL_TEXTS, 'deny-list', { entry: denied.entry }),
    };
  }
  if (mode === 'plan-only') {
    return {
      kind: 'refuse',
      message: fillSection(APPROVAL_TEXTS, 'plan-only'),
    };
  }
  if (changes === 'command' && line && !line.shell.parsed) return unreadableLine(question, line.shell.why);
  if (denied?.match === 'maybe') {
    return {
      kind: 'ask',
      allowedBy: '',
      why: `it may run \`${denied.entry}\`, which the deny list refuses, in a way taskweave cannot read before it runs`,
    };
  }
  if (allowedByList(question) || question.remembered.allows(question)) return { kind: 'run' };
  switch (changes) {
    case 'files':
      return mode === 'ask' ? { kind: 'ask', allowedBy: '--approval edits' } : { kind: 'run' };
    case 'command':
      if (mode === 'auto' && !question.sandboxMissing) return { kind: 'run' };
      return {
        kind: 'ask',
        allowedBy:
          mode === 'auto'
            ? '--sandbox off (bubblewrap is not available, so commands are asked)'
            : '--approval auto (commands then run inside the sandbox)',
      };
    case 'external':
      return mode === 'auto' ? { kind: 'run' } : { kind: 'ask', allowedBy: '--approval auto' };
    case 'network':
      if (mode === 'auto' && !question.networkOff) return { kind: 'run' };
      return { kind: 'ask', allowedBy: mode === 'auto' ? '--network' : '--approval auto --network' };
  }
}

/**
 * A command line the grammar cannot read. In `auto` (with a sandbox, or none by choice) it runs
 * like any command — bash reports its own error — unless a deny entry could hide in it: then it
 * is refused, and the model reads why and can write it again. Elsewhere it is asked, never
 * allowed by a list.
 */
function unreadableLine(question: ApprovalQuestion, why: string): ApprovalVerdict {
  if (question.remembered.allows(question)) return { kind: 'run' };
  if (question.mode === 'auto' && !question.sandboxMissing) {
    if (question.deny.length === 0) return { kind: 'run' };
    return { kind: 'refuse', message: fillSection(APPROVAL_TEXTS, 'unreadable-line', { why }) };
  }
  return { kind: 'ask', allowedBy: '', why: `taskweave cannot check this command line: ${why}` };
}

/** The deny entry a call matches (surely or perhaps): any command a line runs, or an MCP tool's name. */
function deniedBy(question: ApprovalQuestion): { entry: string; match: 'yes' | 'maybe' } | undefined {
  if (question.changes === 'external') {
    const entry = question.deny.find((candidate) => toolMatches(candidate, question.toolName));
    return entry === undefined ? undefined : { entry, match: 'yes' };
  }
  if (question.changes === 'network') {
    const entry = question.deny.find((candidate) => hostMatches(candidate, question));
    return entry === undefined ? undefined : { entry, match: 'yes' };
  }
  if (question.changes !== 'command' || question.line === undefined) return undefined;
  const { runs } = question.line;
  let maybe: string | undefined;
  for (const entry of question.deny) {
    const words = entryWords(entry);
    for (const run of runs) {
      const match = denyMatch(run, words);
      if (match === 'yes') return { entry, match };
      if (match === 'maybe') maybe ??= entry;
    }
  }
  return maybe === undefined ? undefined : { entry: maybe, match: 'maybe' };
}

/**
 * Whether the allow list lets the call run: one plain command beginning with an entry (seen
 * through `time`, `nice`, `timeout`… but not `env`, `sudo` or `xargs`), with none of the
 * options that make a program run code of its own choosing; or an MCP tool by name.
 */
function allowedByList(question: ApprovalQuestion): boolean {
  if (question.changes === 'external')
    return question.allow.some((entry) => toolMatches(entry, question.toolName));
  if (question.changes === 'network') return question.allow.some((entry) => hostMatches(entry, question));
  if (question.changes !== 'command' || question.line === undefined) return false;
  const words = plainCommand(question.line);
  if (words === undefined || codeRunningOption(words) !== undefined) return false;
  return question.allow.some((entry) => startsWithWords(words, entryWords(entry)));
}

/** An MCP tool entry: its full name (`files__read`) or every tool of a server (`files__*`). */
function toolMatches(entry: string, toolName: string): boolean {
  return entry === toolName || (entry.endsWith('__*') && toolName.startsWith(entry.slice(0, -1)));
}

/**
 * A host entry of the allow or deny list: `web_fetch:docs.python.org` (that host),
 * `web_fetch:*.python.org` (the domain and every host under it).
 */
export function hostMatches(entry: string, call: { toolName: string; host?: string }): boolean {
  const prefix = `${call.toolName}:`;
  if (call.host === undefined || !entry.startsWith(prefix)) return false;
  const pattern = entry.slice(prefix.length).toLowerCase();
  if (!pattern.startsWith('*.')) return pattern === call.host;
  const domain = pattern.slice(2);
  return call.host === domain || call.host.endsWith(`.${domain}`);
}
