import type { ServerEvent } from '../events/registry.js';
import { renderPlanLayers } from '../plan/render.js';
import { validatePlan } from '../plan/task-graph.js';
import { formatArgs } from '../util/format-args.js';
import { Spinner, type Style } from './terminal.js';

const MAX_RESULT_LINE_CHARS = 100;

type Out = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/**
 * Renders the event stream for people: one line per tool call with its main argument and a
 * ✓/✗ result, the model's text as it streams, a spinner while the model thinks (on a TTY).
 */
export class HumanRenderer {
  private readonly spinner: Spinner;
  private readonly pendingTools = new Map<string, string>();
  private textOpen = false;
  private textTask: string | undefined;
  private held: ServerEvent[] | undefined;
  /** The text streamed in the latest turn: a final answer already shown is not printed again. */
  private streamed = '';
  /** The tasks of the latest plan and their states, for the list shown at the end. */
  private planTasks: { id: string; title: string; state: string }[] = [];
  /** The run's loop: under `roa` the Reason and Observe phases are shown (they are not streamed). */
  private loop = 'react';

  constructor(
    private readonly out: Out,
    private readonly style: Style,
  ) {
    this.spinner = new Spinner(out);
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

  /** Renders one event. */
  render(event: ServerEvent): void {
    if (this.held) {
      this.held.push(event);
      return;
    }
    if (event.type === 'agent_update') this.renderUpdate(event);
    else this.renderTopLevel(event);
  }

  /** Stops the spinner (before the process prints something else or exits). */
  close(): void {
    this.spinner.stop();
    this.endText();
  }

  private renderUpdate(event: Extract<ServerEvent, { type: 'agent_update' }>): void {
    const s = this.style;
    switch (event.update_type) {
      case 'agent_start':
        this.loop = event.loop;
        this.line(
          s.dim(
            `taskweave · ${event.model}${event.loop === 'roa' ? ' · roa' : ''} · up to ${event.max_steps} steps${safetyHeader(event)}`,
          ),
        );
        return;
      case 'agent_reason':
      case 'agent_observe':
        // Under react, agent_reason repeats text that was already streamed.
        if (this.loop === 'roa' && event.content !== '') {
          const who = event.task_id ? `[${event.task_id}] ` : '';
          const label = event.update_type === 'agent_reason' ? 'reason' : 'observe';
          this.line(s.cyan(`${who}${label}: `) + event.content);
        }
        return;
      case 'agent_turn_start':
        this.streamed = '';
        this.endText();
        this.spinner.start(`thinking (step ${event.step})…`);
        return;
      case 'agent_text_delta':
        this.spinner.stop();
        // Text of tasks running in parallel: each line says whose it is.
        if (this.textOpen && this.textTask !== event.task_id) this.endText();
        if (!this.textOpen && event.task_id) this.out.write(s.dim(`[${event.task_id}] `));
        this.textOpen = true;
        this.textTask = event.task_id;
        this.streamed += event.content;
        this.out.write(event.content);
        return;
      case 'agent_note':
        this.line(s.yellow(`! ${event.content}`));
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
        this.line(s.cyan(`? ${event.question}`));
        return;
      case 'approval_requested':
        this.line(`${s.cyan(`? ${event.name} needs your approval:`)}\n${indentPreview(event.preview)}`);
        return;
      case 'agent_request_input_timeout':
        this.line(s.yellow('! no answer in time; the agent goes on without one'));
        return;
      case 'agent_stopped':
        this.line(s.yellow(`■ stopped at step ${event.step}`));
        return;
      case 'final_answer_refused':
        this.line(s.yellow(`! final answer refused: ${event.remaining} task(s) remain`));
        return;
      case 'plan_proposed': {
        this.planTasks = event.tasks.map((task) => ({ id: task.id, title: task.title, state: 'pending' }));
        const validation = validatePlan(event.tasks);
        const layers = validation.ok ? renderPlanLayers(validation.graph) : '';
        this.line(`${s.bold(`Proposed plan ${event.plan_id} (${event.tasks.length} tasks):`)}\n${layers}`);
        return;
      }
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
        this.line(s.yellow(`✗ plan ${event.plan_id} rejected${event.feedback ? `: ${event.feedback}` : ''}`));
        return;
      case 'task_started':
        this.setTaskState(event.task_id, 'in_progress');
        this.line(s.bold(`▶ [${event.task_id}] ${event.title}`));
        return;
      case 'task_completed':
        this.setTaskState(event.task_id, 'completed');
        this.line(s.green(`✓ [${event.task_id}] ${event.title}`) + s.dim(` — ${event.summary}`));
        return;
      case 'task_failed':
        this.setTaskState(event.task_id, 'failed');
        this.line(s.red(`✗ [${event.task_id}] ${event.title} — ${event.reason}`));
        return;
      case 'task_skipped':
        this.setTaskState(event.task_id, 'skipped');
        this.line(s.yellow(`↷ [${event.task_id}] ${event.title} — skipped`));
        return;
      case 'task_blocked':
        this.setTaskState(event.task_id, 'blocked');
        this.line(s.yellow(`⏸ [${event.task_id}] ${event.title} — ${event.reason}`));
        return;
      case 'agent_completion': {
        const tokens = s.dim(
          ` · ${event.steps} steps · ${event.input_tokens} in / ${event.output_tokens} out tokens`,
        );
        const label =
          event.status === 'completed'
            ? s.green('✓ completed')
            : event.status === 'failed'
              ? s.red('✗ failed')
              : s.yellow(`■ ${event.status.replace('_', ' ')}`);
        if (this.planTasks.length > 0) this.line(this.taskList());
        this.line(label + tokens);
        if (event.status !== 'completed' && event.reason) this.line(`  ${event.reason}`);
        if (event.final_answer && event.final_answer !== this.streamed.trim())
          this.line(`\n${event.final_answer}`);
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
        const call = `${event.name}(${formatArgs(event.args)})`;
        this.pendingTools.set(event.call_id, call);
        this.endText();
        this.spinner.start(`→ ${call}`);
        return;
      }
      case 'tool_progress':
        this.spinner.update(`→ ${this.pendingTools.get(event.call_id) ?? event.name} ${event.content}`);
        return;
      case 'tool_complete':
      case 'tool_error': {
        const call = this.pendingTools.get(event.call_id) ?? event.name;
        this.pendingTools.delete(event.call_id);
        const ok = event.type === 'tool_complete';
        const detail = event.display ?? (ok ? '' : firstLine(event.error));
        const mark = ok ? s.green('✓') : s.red('✗');
        this.line(`→ ${call} ${mark}${detail ? ` ${ok ? s.dim(detail) : detail}` : ''}`);
        return;
      }
      case 'error':
        this.line(s.red(`error: ${event.message}`));
        return;
      default:
        return;
    }
  }

  private setTaskState(id: string, state: string): void {
    const task = this.planTasks.find((candidate) => candidate.id === id);
    if (task) task.state = state;
  }

  private taskList(): string {
    const s = this.style;
    const marks: Record<string, string> = {
      completed: s.green('✓'),
      failed: s.red('✗'),
      blocked: s.yellow('⏸'),
      skipped: s.yellow('↷'),
      in_progress: s.yellow('…'),
      pending: s.dim('·'),
    };
    const rows = this.planTasks.map(
      (task) => `  ${marks[task.state] ?? '·'} [${task.id}] ${task.title} ${s.dim(task.state)}`,
    );
    return `Tasks:\n${rows.join('\n')}`;
  }

  private line(text: string): void {
    this.spinner.stop();
    this.endText();
    this.out.write(`${text}\n`);
  }

  private endText(): void {
    if (this.textOpen) {
      this.out.write('\n');
      this.textOpen = false;
    }
  }
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return line.length <= MAX_RESULT_LINE_CHARS ? line : `${line.slice(0, MAX_RESULT_LINE_CHARS - 1)}…`;
}

/** ` · approval ask · sandbox workspace-write (no network)` for the header, when the run says. */
function safetyHeader(event: { approval?: string; sandbox?: string; network?: boolean }): string {
  const approval = event.approval ? ` · approval ${event.approval}` : '';
  const network = event.network === undefined ? '' : event.network ? ' (network on)' : ' (no network)';
  const sandbox = event.sandbox ? ` · sandbox ${event.sandbox}${network}` : '';
  return approval + sandbox;
}

/** The command or diff of an approval, indented under its question. */
function indentPreview(preview: string): string {
  return preview
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
