import { fillSection } from '../../prompts/template.js';
import type { ApprovalMode } from '../../tools/approval.js';
import type { Tool } from '../../tools/types.js';
import type { RunControl } from '../state/control.js';
import type { GateOrigin, GateResult, ToolCallGate } from '../state/tool-call-gate.js';
import { alwaysLabel, alwaysScope } from './always-scope.js';
import { APPROVAL_TEXTS, type ApprovalVerdict, decideApproval } from './approval-rules.js';
import { codeRunningOption } from './code-running-options.js';
import { type CommandLine, readCommandLine } from './command-line.js';
import { plainCommand } from './plain-command.js';
import type { SessionApprovals } from './session-approvals.js';
import type { Span } from './shell-syntax.js';

/**
 * The approval settings of a runtime: one object shared by its runs, so that a mode switched
 * while a run goes on (interactive session, web UI) applies to its next call.
 */
export interface ApprovalSettings {
  mode: ApprovalMode;
  /** Commands (and MCP tools) that run without asking. */
  allow: readonly string[];
  /** Commands (and MCP tools) that never run. */
  deny: readonly string[];
}

/**
 * Stands before every tool call of a run: the approval rules decide, and a call that must be
 * asked goes to the user as a request (approval_requested) answered through the runtime.
 */
export class ApprovalGate implements ToolCallGate {
  private unanswered = false;
  private failed: string | undefined;
  /** The calls waiting for the user's approval now (of any task of the run), by call id. */
  private readonly waiting = new Map<string, ApprovalSubject>();

  constructor(
    private readonly options: {
      settings: ApprovalSettings;
      remembered: SessionApprovals;
      /** The sandbox was wanted but cannot be used here: commands are asked even in `auto`. */
      sandboxMissing: boolean;
      /** Sandboxed commands may not reach the network: web_fetch is asked even in `auto`. */
      networkOff?: boolean;
      control: RunControl;
    },
  ) {}

  /** A call was not run because it needed approval nobody could give: the run ends (needs_input). */
  get blocked(): boolean {
    return this.unanswered;
  }

  /** The current approval mode. */
  get mode(): ApprovalMode {
    return this.options.settings.mode;
  }

  /**
   * An unexpected error while checking a call (a bug, not a refusal): the call did not run and
   * the run ends as failed with this reason, rather than being left running.
   */
  get failure(): string | undefined {
    return this.failed;
  }

  /** Decides, asking the user when the rules say so. Never throws. */
  async check(origin: GateOrigin): Promise<GateResult> {
    try {
      return await this.decide(origin);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.failed ??= `taskweave failed while checking a call of ${origin.tool.name}: ${message}`;
      return { allowed: false, output: `Not run: ${this.failed}.`, display: 'check failed' };
    }
  }

  private async decide(origin: GateOrigin): Promise<GateResult> {
    const { call, tool } = origin;
    const { settings, remembered, sandboxMissing, control } = this.options;
    const command = commandOf(tool, call.args);
    const line = command === undefined ? undefined : await readCommandLine(command);
    const host = hostOf(tool, call.args);
    const subject = {
      toolName: tool.name,
      changes: tool.changes,
      line,
      ...(host === undefined ? {} : { host }),
    };
    const verdict = decideApproval({
      ...subject,
      mode: settings.mode,
      allow: settings.allow,
      deny: settings.deny,
      sandboxMissing,
      networkOff: this.options.networkOff ?? false,
      remembered,
    });
    if (verdict.kind === 'run') return { allowed: true };
    if (verdict.kind === 'refuse') return { allowed: false, output: verdict.message, display: 'refused' };
    const preview = await tool.preview(call.args, origin.ctx);
    // Invalid arguments: nothing would run; the wrapper reports them to the model.
    if (preview === undefined) return { allowed: true };
    const scope = alwaysScope(subject);
    this.waiting.set(call.id, subject);
    const reply = await control
      .requestApproval(
        {
          callId: call.id,
          name: tool.name,
          args: call.args,
          preview,
          always: alwaysLabel(scope),
          ...(line ? { operators: await operatorsIn(preview, line) } : {}),
          unavailable: unavailableReason({ tool, line, host, preview, verdict }),
          ...(origin.check ? { check: true } : {}),
        },
        { step: origin.step, taskId: origin.taskId, signal: origin.signal, subagent: origin.subagent },
      )
      .finally(() => this.waiting.delete(call.id));
    switch (reply.status) {
      case 'stopped':
        return { allowed: false, output: fillSection(APPROVAL_TEXTS, 'stopped'), display: 'stopped' };
      case 'unavailable':
        this.unanswered = true;
        return {
          allowed: false,
          output: fillSection(APPROVAL_TEXTS, 'no-approver'),
          display: 'needs approval',
        };
      case 'answered':
        if (reply.decision === 'deny') {
          const reason = reply.reason?.trim();
          return {
            allowed: false,
            output: reason
              ? fillSection(APPROVAL_TEXTS, 'denied-with-reason', { reason })
              : fillSection(APPROVAL_TEXTS, 'denied'),
            display: reason ? `denied: ${reason}` : 'denied',
          };
        }
        if (reply.decision === 'always') {
          remembered.remember(scope);
          this.releaseCovered();
        }
        return { allowed: true };
    }
  }

  /**
   * After an "always": the calls of other tasks already waiting for approval that it now covers
   * are allowed at once, instead of asking the user again for each.
   */
  private releaseCovered(): void {
    const { settings, remembered, sandboxMissing, control } = this.options;
    for (const request of control.pending()) {
      if (request.kind !== 'approval' || request.callId === undefined) continue;
      const subject = this.waiting.get(request.callId);
      if (!subject) continue;
      const verdict = decideApproval({
        ...subject,
        mode: settings.mode,
        allow: settings.allow,
        deny: settings.deny,
        sandboxMissing,
        remembered,
      });
      if (verdict.kind === 'run') control.answer(request.requestId, { kind: 'approval', decision: 'allow' });
    }
  }
}

/** What a call asked about is, as the approval rules read it. */
type ApprovalSubject = { toolName: string; changes: Tool['changes']; line: CommandLine | undefined };

/**
 * Where the operators of a command are in its preview: the command's own, shifted, when the
 * preview shows it whole; else those of the preview read again (cut or redacted).
 */
async function operatorsIn(preview: string, line: CommandLine): Promise<Span[]> {
  const at = preview.lastIndexOf(line.text);
  if (at >= 0 && line.text !== '')
    return line.shell.operators.map(([start, end]): Span => [start + at, end + at]);
  return (await readCommandLine(preview)).shell.operators;
}

/** The command line of a `command` call (run_command's `command`), when it has one. */
function commandOf(tool: Tool, args: unknown): string | undefined {
  if (tool.changes !== 'command' || args === null || typeof args !== 'object') return undefined;
  const command = (args as Record<string, unknown>).command;
  return typeof command === 'string' ? command : undefined;
}

/** The host a `network` call reaches (its `url`), lower case; undefined when it has none. */
function hostOf(tool: Tool, args: unknown): string | undefined {
  if (tool.changes !== 'network' || args === null || typeof args !== 'object') return undefined;
  const url = (args as Record<string, unknown>).url;
  if (typeof url !== 'string' || !URL.canParse(url)) return undefined;
  return new URL(url).hostname.toLowerCase() || undefined;
}

/** Why a run ends when nobody can approve a call: the call, and the flag or config entry that allows it. */
function unavailableReason(options: {
  tool: Tool;
  line: CommandLine | undefined;
  host: string | undefined;
  preview: string;
  verdict: Extract<ApprovalVerdict, { kind: 'ask' }>;
}): string {
  const { tool, line, verdict } = options;
  const what =
    line !== undefined
      ? `The command \`${line.text}\``
      : tool.changes === 'files'
        ? `The file change by ${tool.name} (${firstLine(options.preview)})`
        : options.host !== undefined
          ? `${tool.name} of ${options.host}`
          : `The call of ${tool.name}`;
  if (verdict.why !== undefined)
    return `${what} needs approval and no one can give it here (no terminal): ${verdict.why}.`;
  const listable =
    tool.changes === 'external'
      ? ` or add "${tool.name}" to "allow" in the taskweave config`
      : options.host !== undefined
        ? ` or add "${tool.name}:${options.host}" to "allow" in the taskweave config`
        : line !== undefined && coverable(line)
          ? ` or add "${line.text}" to "allow" in the taskweave config`
          : '';
  return `${what} needs approval and no one can give it here (no terminal). Run with ${verdict.allowedBy}${listable}.`;
}

/** Whether an allow entry naming the line would let it run (one plain command, no code-running option). */
function coverable(line: CommandLine): boolean {
  const words = plainCommand(line);
  return words !== undefined && codeRunningOption(words) === undefined;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.startsWith('+++ '))
      ?.slice('+++ b/'.length) ??
    text.split('\n')[0] ??
    ''
  );
}
