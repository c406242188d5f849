import type { ServerEvent } from '../../events/registry.js';
import { formatDollars, formatTokenCount } from '../../events/usage-text.js';
import { plural } from './text-wrap.js';

/** A subagent running now, as its line shows it. */
interface RunningChild {
  agent: string;
  job: string;
  steps: number;
  lastTool?: string;
}

type SubagentEnded = Extract<ServerEvent, { update_type: 'subagent_ended' }>;

/**
 * What the terminal shows of subagents: while they run, one line that updates (agent, job, steps
 * so far, last tool; several children on one line); when one ends, a line with its answer's
 * first line, its steps and what it spent.
 */
export class SubagentLines {
  private readonly running = new Map<string, RunningChild>();
  /** Delegate calls whose child ended with a line of its own (their tool line is not repeated). */
  private readonly closed = new Set<string>();

  /** Whether children are running now (the spinner shows them). */
  get active(): boolean {
    return this.running.size > 0;
  }

  /** Whether a delegate call's child already closed with its own line. */
  closedWithLine(callId: string): boolean {
    return this.closed.has(callId);
  }

  /** Follows a child's event; returns the line to print when the child ended. */
  follow(event: ServerEvent, callId: string): { ended: SubagentEnded } | undefined {
    if (event.type === 'agent_update') {
      if (event.update_type === 'subagent_started') {
        this.running.set(callId, { agent: event.agent, job: event.job, steps: 0 });
        return undefined;
      }
      if (event.update_type === 'subagent_ended') {
        this.running.delete(callId);
        this.closed.add(callId);
        return { ended: event };
      }
    }
    const child = this.running.get(callId);
    if (child === undefined) return undefined;
    if (event.type === 'agent_update' && event.update_type === 'agent_turn_start') child.steps = event.step;
    if (event.type === 'tool_start') child.lastTool = event.name;
    return undefined;
  }

  /** The spinner's line while children run: `explore · find the callers · step 2 · search_code`. */
  label(): string {
    const children = [...this.running.values()];
    if (children.length === 1) {
      const [child] = children as [RunningChild];
      return [child.agent, oneLine(child.job), `step ${child.steps}`, child.lastTool]
        .filter(Boolean)
        .join(' · ');
    }
    const each = children.map(
      (child) => `${child.agent} (${[`step ${child.steps}`, child.lastTool].filter(Boolean).join(', ')})`,
    );
    return `${children.length} subagents: ${each.join(' · ')}`;
  }
}

/** `explore · 2 steps · 1.2k tokens · $0.01: <first line of the answer>` (or why it ended). */
export function subagentEndLine(event: SubagentEnded): string {
  const spent = [
    plural(event.steps, 'step'),
    `${formatTokenCount(event.input_tokens + event.output_tokens)} tokens`,
    ...(event.cost === undefined ? [] : [formatDollars(event.cost)]),
    ...(event.files.length === 0 ? [] : [`changed ${event.files.join(', ')}`]),
  ].join(' · ');
  const said = event.status === 'completed' ? (event.answer ?? '') : `${event.status}: ${event.reason ?? ''}`;
  return `${event.agent} · ${spent}: ${oneLine(said)}`;
}

function oneLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? '';
}
