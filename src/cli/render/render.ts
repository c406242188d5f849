import { compactionText } from '../../events/compaction-text.js';
import { hookRanText } from '../../events/hook-ran-text.js';
import type { ServerEvent } from '../../events/registry.js';
import { childCallOf } from '../../events/session-view-subagents.js';
import { formatDollars } from '../../events/usage-text.js';
import { worktreeText } from '../../events/worktree-text.js';
import { formatArgs } from '../../util/format-args.js';
import { sanitizeForTerminal } from '../../util/terminal-text.js';
import { approvalPreview } from './approval-preview.js';
import { markdownRenderer } from './markdown-loader.js';
import type { MarkdownStream } from './markdown-stream.js';
import { type PlanTaskState, proposedPlanLines, taskListLines } from './plan-lines.js';
import { StillRunning } from './still-running.js';
import { visibleLength, wrapStyled } from './styled-text.js';
import { SubagentLines, subagentEndLine } from './subagent-lines.js';
import { Spinner, type Style } from './terminal.js';
import { fitLine, plural } from './text-wrap.js';
import { toolDetailLines } from './tool-details.js';

const MAX_RESULT_LINE_CHARS = 100;
/** A tool call shortened to fit its row keeps at least this much of itself. */
const MIN_CALL_CHARS = 24;
/** The width markdown is laid out for when the terminal does not say. */
const DEFAULT_COLUMNS = 80;
/**
 * Tools that steer the run rather than act: their effect has its own line (the plan, a task's
 * summary, the final answer, a refusal; request_input's question and what became of it), so a
 * successful call prints nothing more.
 */
const CONTROL_TOOLS = new Set([
  'plan_actions',
  'task_completed',
  'fail_task',
  'final_answer',
  'request_input',
]);

type Out = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** How the renderer shows things. */
export interface RenderOptions {
  /** Every line of a command's output and whole diffs (by default: a failed command's last lines). */
  verbose?: boolean;
  /** On piped output, how often a long tool call says it is still running (ms). */
  stillRunningMs?: number;
  /** The instruction files (AGENTS.md) the run's prompt holds, named under the header. */
  instructionFiles?: () => string[];
  /** The run header only when it differs from the last one shown (an interactive session's goals share it). */
  headerOnChange?: boolean;
}

interface PendingTool {
  /** `name(args)` as shown. */
  call: string;
  name: string;
  args: unknown;
  /** `[task] ` for a call in a plan task, else empty. */
  who: string;
}

/**
 * Renders the event stream for people: one line per tool call with its main argument and a
 * ✓/✗ result, the model's text as it streams, a spinner while the model thinks (on a TTY).
 */
export class HumanRenderer {
  private readonly spinner: Spinner;
  private readonly stillRunning: StillRunning | undefined;
  private readonly pendingTools = new Map<string, PendingTool>();
  private textOpen = false;
  /** The streamed text as markdown, on a terminal (see markdownRenderer). */
  private markdown: MarkdownStream | undefined;
  private textTask: string | undefined;
  private held: ServerEvent[] | undefined;
  /** The text streamed in the latest turn: a final answer already shown is not printed again. */
  private streamed = '';
  /** The questions asked in this run: a run that ends waiting for one does not repeat it. */
  private readonly questions = new Set<string>();
  /** The user stopped the run (the completion line says so: one line for one stop). */
  /** Where the goal run in worktrees left its work (goal_applied), said under the closing line. */
  private goalWork: string | undefined;
  private stoppedByUser = false;
  /** The session's budget was passed: the completion line says so (budget_exceeded said why). */
  private stoppedByBudget = false;
  /** What each plan task's model calls cost so far (priced calls only), for its closing line. */
  private readonly taskCosts = new Map<string, number>();
  /** The tasks of the latest plan and their states, for the list shown at the end. */
  private planTasks: PlanTaskState[] = [];
  /** The run's loop: under `roa` the Reason and Observe phases are shown (they are not streamed). */
  private loop = 'react';
  /** The last run header shown (see `headerOnChange`). */
  private header = '';
  /** The subagents running now, for their one line. */
  private readonly children = new SubagentLines();
  /** Plan tasks working now (from their first turn to their end), for a spinner that names them all. */
  private readonly working = new Set<string>();

  constructor(
    private readonly out: Out,
    private readonly style: Style,
    private readonly options: RenderOptions = {},
  ) {
    this.spinner = new Spinner(out);
    // A terminal has the spinner; a log (CI) gets a line now and then instead.
    if (!out.isTTY)
      this.stillRunning = new StillRunning((text) => this.line(style.dim(text)), options.stillRunningMs);
  }

  /**
   * Holds output back while the user types at a prompt (tasks running in parallel go on
   * emitting events); release() shows what came in meanwhile.
   */
  hold(): void {
    this.spinner.stop();
    this.endText();
    this.held ??= [];
  }

  release(): void {
    const queued = this.held ?? [];
    this.held = undefined;
    for (const event of queued) this.render(event);
  }

  /** Renders one event; control sequences in what it carries are stripped (taskweave styles it itself). */
  render(raw: ServerEvent): void {
    const event = withoutStaleSpans(sanitizeForTerminal(raw), raw);
    if (this.held) {
      this.held.push(event);
      return;
    }
    const childCall = childCallOf(event);
    if (childCall !== undefined) this.renderChild(event, childCall);
    else if (event.type === 'agent_update') this.renderUpdate(event);
    else this.renderTopLevel(event);
  }

  /**
   * A subagent's event: its line on the spinner follows it, its end is a line of its own; under
   * --verbose its tool calls and notes are printed too, indented under its name.
   */
  private renderChild(event: ServerEvent, callId: string): void {
    const s = this.style;
    const followed = this.children.follow(event, callId);
    if (followed) {
      const ok = followed.ended.status === 'completed';
      this.line(`${ok ? s.green('✓') : s.red('✗')} ${subagentEndLine(followed.ended)}`);
      if (this.children.active) this.spin(this.children.label());
      return;
    }
    const who = 'agent' in event && typeof event.agent === 'string' ? `  ${event.agent} › ` : '  ';
    if (this.options.verbose) {
      if (event.type === 'tool_complete' || event.type === 'tool_error') {
        const ok = event.type === 'tool_complete';
        const detail = event.display ?? firstLine(ok ? event.result : event.error);
        this.line(s.dim(`${who}→ ${event.name} ${ok ? '✓' : '✗'} ${detail}`.trimEnd()));
      } else if (event.type === 'agent_update' && event.update_type === 'agent_note')
        this.line(s.dim(`${who}! ${event.content}`));
    }
    if (this.children.active) this.spin(this.children.label());
  }

  /** Stops the spinner (before the process prints something else or exits). */
  close(): void {
    this.stillRunning?.clear();
    this.spinner.stop();
    this.endText();
  }

  private renderUpdate(event: Extract<ServerEvent, { type: 'agent_update' }>): void {
    const s = this.style;
    switch (event.update_type) {
      case 'agent_start': {
        this.loop = event.loop;
        const header = `taskweave · ${event.model}${event.loop === 'roa' ? ' · roa' : ''} · up to ${plural(event.max_steps, 'step')}${safetyHeader(event)}`;
        const files = this.options.instructionFiles?.() ?? [];
        const text = files.length > 0 ? `${header}\ninstructions: ${files.join(', ')}` : header;
        if (this.options.headerOnChange && text === this.header) return;
        this.header = text;
        this.line(s.dim(text));
        return;
      }
      case 'agent_reason':
      case 'agent_observe':
        // Under react, agent_reason repeats text that was already streamed.
        if (this.loop === 'roa' && event.content !== '') {
          const who = event.task_id ? `[${event.task_id}] ` : '';
          const label = `${who}${event.update_type === 'agent_reason' ? 'reason' : 'observe'}: `;
          this.verbatim(s.cyan(label) + this.modelText(event.content, visibleLength(label)));
        }
        return;
      case 'agent_turn_start':
        this.streamed = '';
        this.endText();
        if (event.task_id) this.working.add(event.task_id);
        this.spin(`thinking (step ${event.step})…`);
        return;
      case 'agent_text_delta':
        this.spinner.stop();
        // Text of tasks running in parallel: each line says whose it is.
        if (this.textOpen && this.textTask !== event.task_id) this.endText();
        if (!this.textOpen) {
          const who = event.task_id ? `[${event.task_id}] ` : '';
          if (who) this.out.write(s.dim(who));
          const markdown = this.markdownRenderer;
          if (markdown)
            this.markdown = new markdown.MarkdownStream(
              s,
              () => this.out.columns || DEFAULT_COLUMNS,
              visibleLength(who),
            );
        }
        this.textOpen = true;
        this.textTask = event.task_id;
        this.streamed += event.content;
        this.out.write(this.markdown ? this.markdown.push(event.content) : event.content);
        return;
      case 'agent_note':
        this.line(s.yellow(`! ${event.task_id ? `[${event.task_id}] ` : ''}${event.content}`));
        return;
      case 'context_compacted':
        this.line(s.dim(`⋯ ${compactionText(event)}`));
        return;
      case 'hook_ran':
        // A hook that went well is quiet unless asked for (--verbose); a failed one is said.
        if (event.exit_code !== 0) this.line(s.yellow(`! ${hookRanText(event)}`));
        else if (this.options.verbose) this.line(s.dim(`⋯ ${hookRanText(event)}`));
        return;
      case 'goal_branch':
      case 'worktree_created':
      case 'task_merged':
        this.line(s.dim(`⎇ ${worktreeText(event)}`));
        return;
      case 'merge_conflict':
        this.line(s.yellow(`⎇ ${worktreeText(event)}`));
        return;
      case 'goal_applied':
        // Said under the run's closing line: where the goal's work went is the last thing read.
        this.goalWork =
          event.outcome === 'applied'
            ? s.green(`⎇ ${worktreeText(event)}`)
            : s.yellow(`⎇ ${worktreeText(event)}`);
        return;
      case 'agent_retry':
        // The step streams again from the start; what it streamed so far is void.
        this.streamed = '';
        this.line(
          s.yellow(
            `! model call failed (${event.error}); retrying in ${(event.delay_ms / 1000).toFixed(1)}s (attempt ${event.attempt + 1})`,
          ),
        );
        return;
      case 'agent_request_input':
        this.questions.add(event.question);
        this.line(
          s.cyan(
            `? ${event.task_id ? `[${event.task_id}] ` : ''}${event.agent ? `${event.agent} › ` : ''}${event.question}`,
          ),
        );
        return;
      case 'approval_requested':
        this.line(
          s.cyan(
            `? ${event.task_id ? `[${event.task_id}] ` : ''}${event.agent ? `${event.agent} › ` : ''}${event.check ? "the task's check, as in the plan you approved," : event.name} needs your approval:`,
          ),
          approvalPreview({ ...event, style: s, width: this.width() }),
        );
        return;
      case 'agent_request_input_timeout':
        this.line(s.yellow('! no answer in time; the agent goes on without one'));
        return;
      case 'model_usage':
        if (event.task_id !== undefined && event.cost !== undefined)
          this.taskCosts.set(event.task_id, (this.taskCosts.get(event.task_id) ?? 0) + event.cost);
        return;
      case 'budget_exceeded':
        this.stoppedByBudget = true;
        this.spinner.stop();
        this.line(
          s.yellow(
            `■ budget exceeded: ${formatDollars(event.spent)} spent of the session's ${formatDollars(event.budget)}; the run stops here`,
          ),
        );
        return;
      case 'agent_stopped':
        // The completion line that follows says it.
        this.stoppedByUser = true;
        this.spinner.stop();
        return;
      case 'final_answer_refused':
        this.line(
          s.yellow(
            `! final answer refused: ${plural(event.remaining, 'task remains', 'tasks remain')}; the run goes on`,
          ),
        );
        return;
      case 'plan_proposed':
        this.planTasks = event.tasks.map((task) => ({ id: task.id, title: task.title, state: 'pending' }));
        this.line(proposedPlanLines(event, s, this.width()).join('\n'));
        return;
      case 'plan_resumed': {
        const done = new Set(event.completed);
        this.planTasks = event.tasks.map((task) => ({
          id: task.id,
          title: task.title,
          state: done.has(task.id) ? 'completed' : 'pending',
        }));
        this.line(
          s.bold(
            `Resuming plan ${event.plan_id}: ${done.size} of ${event.tasks.length} tasks already completed`,
          ),
        );
        return;
      }
      case 'plan_approved':
        this.line(s.green(`✓ plan ${event.plan_id} approved`));
        return;
      case 'plan_rejected':
        // A rejected plan's tasks never run: they are not listed at the end as pending.
        this.planTasks = [];
        this.line(s.yellow(`✗ plan ${event.plan_id} rejected${event.feedback ? `: ${event.feedback}` : ''}`));
        return;
      case 'task_started':
        this.setTaskState(event.task_id, 'in_progress');
        this.line(s.bold(`▶ [${event.task_id}] ${event.title}`));
        return;
      case 'task_completed':
        this.working.delete(event.task_id);
        this.setTaskState(event.task_id, 'completed');
        this.line(
          s.green(`✓ [${event.task_id}] ${event.title}`) +
            s.dim(`${this.taskCost(event.task_id)} — ${event.summary}`),
        );
        return;
      case 'task_failed':
        this.working.delete(event.task_id);
        this.setTaskState(event.task_id, 'failed');
        this.line(
          s.red(`✗ [${event.task_id}] ${event.title}${this.taskCost(event.task_id)} — ${event.reason}`),
        );
        return;
      case 'task_skipped':
        this.working.delete(event.task_id);
        this.setTaskState(event.task_id, 'skipped');
        this.line(s.yellow(`↷ [${event.task_id}] ${event.title} — skipped`));
        return;
      case 'task_blocked':
        this.working.delete(event.task_id);
        this.setTaskState(event.task_id, 'blocked');
        this.line(s.yellow(`⏸ [${event.task_id}] ${event.title} — ${event.reason}`));
        return;
      case 'agent_completion': {
        this.working.clear();
        const skipped = this.planTasks.filter((task) => task.state === 'skipped').length;
        const tokens = s.dim(
          ` · ${plural(event.steps, 'step')} · ${event.input_tokens} in / ${event.output_tokens} out tokens${event.cost === undefined ? '' : ` · ${formatDollars(event.cost)}`}`,
        );
        const label =
          event.status === 'completed'
            ? skipped > 0
              ? s.yellow(`✓ completed, ${plural(skipped, 'task')} skipped`)
              : s.green('✓ completed')
            : event.status === 'failed'
              ? s.red('✗ failed')
              : event.status === 'stopped' && this.stoppedByUser
                ? s.yellow('■ stopped by the user')
                : event.status === 'stopped' && this.stoppedByBudget
                  ? s.yellow('■ stopped: budget exceeded')
                  : s.yellow(`■ ${event.status.replace('_', ' ')}`);
        if (this.planTasks.length > 0) this.line(taskListLines(this.planTasks, s).join('\n'));
        // The answer before the closing line, as when it was streamed (a plan's comes from a tool).
        if (event.final_answer && event.final_answer !== this.streamed.trim())
          this.verbatim(`${this.planTasks.length > 0 ? '\n' : ''}${this.modelText(event.final_answer)}`);
        this.line(label + tokens);
        if (this.goalWork) this.line(this.goalWork);
        this.goalWork = undefined;
        const said =
          (event.status === 'stopped' && (this.stoppedByUser || this.stoppedByBudget)) ||
          (event.status === 'needs_input' && this.questions.has(event.reason ?? ''));
        if (event.status !== 'completed' && event.reason && !said) this.line(`  ${event.reason}`);
        this.stoppedByUser = false;
        this.stoppedByBudget = false;
        this.taskCosts.clear();
        this.questions.clear();
        return;
      }
      default:
        return;
    }
  }

  private renderTopLevel(event: Exclude<ServerEvent, { type: 'agent_update' }>): void {
    const s = this.style;
    switch (event.type) {
      case 'tool_start': {
        const pending: PendingTool = {
          call: `${event.name}(${formatArgs(event.args)})`,
          name: event.name,
          args: event.args,
          who: event.task_id ? `[${event.task_id}] ` : '',
        };
        this.pendingTools.set(event.call_id, pending);
        if (CONTROL_TOOLS.has(event.name)) return;
        this.endText();
        // A subagent's own line (its spinner, then its end) stands for its delegate call.
        if (event.name === 'delegate') return;
        this.spin(`${pending.who}→ ${pending.call}`);
        this.stillRunning?.start(event.call_id, `${pending.who}${pending.call}`);
        return;
      }
      case 'tool_progress': {
        const pending = this.pendingTools.get(event.call_id);
        if (this.working.size < 2)
          this.spinner.update(`${pending?.who ?? ''}→ ${pending?.call ?? event.name} ${event.content}`);
        this.stillRunning?.progress(event.call_id, event.content);
        return;
      }
      case 'tool_complete':
      case 'tool_error':
        this.renderToolEnd(event);
        return;
      case 'error':
        this.line(s.red(`error: ${event.message}`));
        return;
      default:
        return;
    }
  }

  private renderToolEnd(event: Extract<ServerEvent, { type: 'tool_complete' | 'tool_error' }>): void {
    const s = this.style;
    const pending = this.pendingTools.get(event.call_id);
    this.pendingTools.delete(event.call_id);
    this.stillRunning?.end(event.call_id);
    const ok = event.type === 'tool_complete';
    if (ok && CONTROL_TOOLS.has(event.name)) return;
    if (event.name === 'delegate' && this.children.closedWithLine(event.call_id)) return;
    const result = ok ? event.result : event.error;
    const detail = event.display ?? (ok ? '' : firstLine(result));
    const mark = ok ? s.green('✓') : s.red('✗');
    const who = pending?.who ?? (event.task_id ? `[${event.task_id}] ` : '');
    const head = `${who}→ `;
    const tail = ` ${mark}${detail ? ` ${ok ? s.dim(detail) : detail}` : ''}`;
    const call = pending?.call ?? event.name;
    // On a terminal the call is shortened so that its result stays on its row.
    const width = this.width();
    const room = width === undefined ? undefined : width - 1 - visibleLength(head) - visibleLength(tail);
    const details = toolDetailLines(
      {
        name: event.name,
        args: pending?.args,
        ok,
        result,
        ...(ok && event.diagnostics ? { diagnostics: event.diagnostics } : {}),
      },
      { verbose: this.options.verbose ?? false, style: s },
    );
    this.line(
      `${head}${room === undefined ? call : fitCall(call, event.name, room)}${tail}`,
      details.join('\n'),
    );
  }

  /**
   * Starts the spinner on what one run is doing; with several plan tasks working at once it names
   * them all instead (their turns and calls would otherwise take the line in turn).
   */
  private spin(label: string): void {
    const tasks = [...this.working];
    const shown = tasks.length > 1 ? `${tasks.length} tasks running: ${tasks.join(', ')}` : label;
    if (this.spinner.active) this.spinner.update(shown);
    else this.spinner.start(shown);
  }

  /** The terminal's width, or undefined when the output is piped (lines are then not cut). */
  private width(): number | undefined {
    return this.out.isTTY ? this.out.columns || 80 : undefined;
  }

  /** ` · $0.0123` when the task's model calls had a price, else nothing. */
  private taskCost(taskId: string): string {
    const cost = this.taskCosts.get(taskId);
    return cost === undefined ? '' : ` · ${formatDollars(cost)}`;
  }

  private setTaskState(id: string, state: string): void {
    const task = this.planTasks.find((candidate) => candidate.id === id);
    if (task) task.state = state;
  }

  /**
   * Writes a line (or several) of taskweave's own; on a terminal they wrap between words, not
   * wherever a row ends. `verbatim` lines go under them as they are: a command's output, a diff.
   */
  private line(text: string, verbatim = ''): void {
    const width = this.width();
    const wrapped = width === undefined ? text : wrapStyled(text, width - 1);
    this.verbatim(verbatim === '' ? wrapped : `${wrapped}\n${verbatim}`);
  }

  /** Writes lines as they are (the model's text is laid out by the markdown renderer). */
  private verbatim(text: string): void {
    this.spinner.stop();
    this.endText();
    this.out.write(`${text}\n`);
  }

  private endText(): void {
    if (this.textOpen) {
      this.out.write(`${this.markdown?.flush() ?? ''}\n`);
      this.markdown = undefined;
      this.textOpen = false;
    }
  }

  /**
   * Markdown in the model's text is rendered on a terminal with colours (the CLI loads the
   * renderer first: see markdown-loader.ts); elsewhere it is left as written.
   */
  private get markdownRenderer() {
    return this.style.enabled && this.out.isTTY ? markdownRenderer() : undefined;
  }

  /**
   * A whole text of the model (a final answer, a reasoning), rendered when markdown is; `lead`:
   * the columns of a label written before it on its first row.
   */
  private modelText(text: string, lead = 0): string {
    const markdown = this.markdownRenderer;
    return markdown
      ? markdown.renderMarkdown(text, this.style, this.out.columns || DEFAULT_COLUMNS, lead)
      : text;
  }
}

/**
 * `name(args)` shortened to `room` columns (on a terminal, so that the call's result stays on its
 * row): the arguments are cut, the name, a cut string's closing quote and the closing parenthesis stay.
 */
function fitCall(call: string, name: string, room: number): string {
  const fits = Math.max(MIN_CALL_CHARS, room);
  if (visibleLength(call) <= fits || !call.startsWith(`${name}(`) || !call.endsWith(')'))
    return fitLine(call, fits);
  const args = call.slice(name.length + 1, -1);
  const argsRoom = Math.max(1, fits - name.length - 2);
  const cut = fitLine(args, argsRoom);
  // A quoted argument cut short keeps its closing quote: `run_command("echo seco…")`.
  const quoteLost = args.startsWith('"') && !cut.slice(1).includes('"');
  return `${name}(${quoteLost && argsRoom > 2 ? `${fitLine(args, argsRoom - 1)}"` : cut})`;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return line.length <= MAX_RESULT_LINE_CHARS ? line : `${line.slice(0, MAX_RESULT_LINE_CHARS - 1)}…`;
}

/** ` · approval ask · sandbox workspace-write (no network)` for the header, when the run says. */
function safetyHeader(event: {
  approval?: string;
  sandbox?: string;
  network?: boolean;
  isolation?: string;
}): string {
  // `auto` is not named: what it picks for a plan is said when the plan starts (a ⎇ line).
  const isolation = event.isolation && event.isolation !== 'auto' ? ` · isolation ${event.isolation}` : '';
  const approval = event.approval ? ` · approval ${event.approval}` : '';
  const network = event.network === undefined ? '' : event.network ? ' (network on)' : ' (no network)';
  const sandbox = event.sandbox ? ` · sandbox ${event.sandbox}${network}` : '';
  return approval + sandbox + isolation;
}

/** The command or diff of an approval, indented under its question. */
/**
 * An approval's operator spans point into its preview as sent: when stripping control sequences
 * changed the preview, they no longer fit it and are left out (the command is shown unmarked).
 */
function withoutStaleSpans(event: ServerEvent, raw: ServerEvent): ServerEvent {
  if (event.type !== 'agent_update' || event.update_type !== 'approval_requested') return event;
  if (raw.type !== 'agent_update' || raw.update_type !== 'approval_requested') return event;
  return event.preview === raw.preview ? event : { ...event, operators: undefined };
}
