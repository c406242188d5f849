import type { ApprovalMode, ChangeKind } from '../../tools/approval.js';
import { commandsOf, entryWords, parseSimpleCommand, startsWithWords } from './command-line.js';
import type { SessionApprovals } from './session-approvals.js';

/** What the approval rules say about one call. */
export type ApprovalVerdict =
  | { kind: 'run' }
  /** Ask the user; `allowedBy` says what would have let it run unasked (for a run nobody can ask). */
  | { kind: 'ask'; allowedBy: string }
  | { kind: 'refuse'; message: string };

/** One call as the rules see it. */
export interface ApprovalQuestion {
  mode: ApprovalMode;
  toolName: string;
  changes: ChangeKind;
  /** The command line, for `command` calls. */
  command?: string;
  allow: readonly string[];
  deny: readonly string[];
  /**
   * The sandbox was wanted but bubblewrap cannot be used here: commands are asked even in
   * `auto` (not so with `--sandbox off`, the user's explicit choice).
   */
  sandboxMissing: boolean;
  /** "Always" answers given in this session. */
  remembered: SessionApprovals;
}

/**
 * Decides whether a call runs, is asked, or is refused. The deny list wins over everything,
 * `plan-only` refuses every change, the allow list and "always" answers let a call run unasked;
 * otherwise the mode decides: `ask` asks every change, `edits` runs file changes, `auto` runs
 * everything, commands inside the sandbox (asked when the sandbox is wanted but missing).
 */
export function decideApproval(question: ApprovalQuestion): ApprovalVerdict {
  const { mode, changes } = question;
  if (changes === 'none') return { kind: 'run' };
  const denied = deniedBy(question);
  if (denied !== undefined) {
    return {
      kind: 'refuse',
      message: `Refused: \`${denied}\` is on the deny list of the taskweave config, so this call is never run. Do not try to get around it; tell the user if the task needs it.`,
    };
  }
  if (mode === 'plan-only') {
    return {
      kind: 'refuse',
      message:
        'Refused: taskweave runs in plan-only mode (--approval plan-only), where only read-only tools run and nothing is changed. Describe the change you would make instead.',
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
  }
}

/** The deny entry a call matches: any command of a command line, or an MCP tool's name. */
function deniedBy(question: ApprovalQuestion): string | undefined {
  if (question.changes === 'external')
    return question.deny.find((entry) => toolMatches(entry, question.toolName));
  if (question.changes !== 'command' || question.command === undefined) return undefined;
  const commands = commandsOf(question.command);
  return question.deny.find((entry) => {
    const words = entryWords(entry);
    return commands.some((command) => startsWithWords(command, words));
  });
}

/** Whether the allow list lets the call run: a simple command beginning with an entry, or a tool by name. */
function allowedByList(question: ApprovalQuestion): boolean {
  if (question.changes === 'external')
    return question.allow.some((entry) => toolMatches(entry, question.toolName));
  if (question.changes !== 'command' || question.command === undefined) return false;
  const parsed = parseSimpleCommand(question.command);
  if (!parsed.simple) return false;
  return question.allow.some((entry) => startsWithWords(parsed.words, entryWords(entry)));
}

/** An MCP tool entry: its full name (`files__read`) or every tool of a server (`files__*`). */
function toolMatches(entry: string, toolName: string): boolean {
  return entry === toolName || (entry.endsWith('__*') && toolName.startsWith(entry.slice(0, -1)));
}
