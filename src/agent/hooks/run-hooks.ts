import {
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookConfig,
  type HookEvent,
  type HooksConfig,
  hookMatches,
} from '../../config/hooks-config.js';
import type { EventPayload } from '../../events/registry.js';
import type { HookedCall, HookOrigin, HookRunner } from '../state/hook-runner.js';
import { type HookOutcome, runHook } from './run-hook.js';

/** The most of a tool's output an afterTool hook is given on stdin. */
const HOOK_OUTPUT_LIMIT = 20_000;
/** The most of a failed hook's stderr the hook_ran event carries. */
const EVENT_MESSAGE_LIMIT = 300;

/**
 * The hooks of the user's config, for one run: each runs as a child process in the workspace
 * with the event as JSON on stdin (see runHook), and each run is announced as a `hook_ran`
 * event. Only a `beforeTool` hook decides anything: its non-zero exit refuses the call.
 */
export class RunHooks implements HookRunner {
  constructor(
    private readonly options: {
      config: HooksConfig | undefined;
      workspaceRoot: string;
      runId: string;
      sessionId: string;
      emit: (payload: EventPayload) => void;
      env?: NodeJS.ProcessEnv;
    },
  ) {}

  /** Whether any hook is configured for this moment (nothing is built for the event otherwise). */
  has(event: HookEvent): boolean {
    return (this.options.config?.[event]?.length ?? 0) > 0;
  }

  /**
   * Runs the beforeTool hooks matching the call, in order, until one fails: its refusal (what
   * the model reads as the call's result) or undefined when every hook let the call go on.
   */
  async beforeTool(call: HookedCall, origin: HookOrigin, signal?: AbortSignal): Promise<string | undefined> {
    for (const hook of this.matching('beforeTool', call.name)) {
      const input = this.input('beforeTool', origin, { tool: call.name, call_id: call.id, args: call.args });
      const outcome = await this.run('beforeTool', hook, input, origin, signal, call.name);
      if (outcome.exitCode === 0) continue;
      const why = outcome.timedOut
        ? `it did not finish within ${timeoutOf(hook)} ms`
        : outcome.stderr || `it exited with ${outcome.exitCode ?? 'no code'} and said nothing on stderr`;
      return `Refused by a beforeTool hook of the user's config (${hook.command}): ${why}`;
    }
    return undefined;
  }

  /** Runs the afterTool hooks matching the call; their failures are announced, never fatal. */
  async afterTool(
    call: HookedCall,
    result: { output: string; isError: boolean },
    origin: HookOrigin,
    signal?: AbortSignal,
  ): Promise<void> {
    for (const hook of this.matching('afterTool', call.name)) {
      const input = this.input('afterTool', origin, {
        tool: call.name,
        call_id: call.id,
        args: call.args,
        result: { output: result.output.slice(0, HOOK_OUTPUT_LIMIT), is_error: result.isError },
      });
      await this.run('afterTool', hook, input, origin, signal, call.name);
    }
  }

  /** Runs the hooks of a run's moment (runStart, runEnd, waitingForInput) with `details` on stdin. */
  async at(
    event: 'runStart' | 'runEnd' | 'waitingForInput',
    details: object,
    origin: HookOrigin,
  ): Promise<void> {
    for (const hook of this.options.config?.[event] ?? []) {
      await this.run(event, hook, this.input(event, origin, details), origin);
    }
  }

  private matching(event: 'beforeTool' | 'afterTool', toolName: string): HookConfig[] {
    return (this.options.config?.[event] ?? []).filter((hook) => hookMatches(hook.match, toolName));
  }

  private input(event: HookEvent, origin: HookOrigin, details: object) {
    return {
      hook: event,
      session_id: this.options.sessionId,
      run_id: this.options.runId,
      workspace: this.options.workspaceRoot,
      step: origin.step,
      ...(origin.taskId !== undefined ? { task_id: origin.taskId } : {}),
      ...details,
    };
  }

  private async run(
    event: HookEvent,
    hook: HookConfig,
    input: unknown,
    origin: HookOrigin,
    signal?: AbortSignal,
    tool?: string,
  ): Promise<HookOutcome> {
    const outcome = await runHook({
      command: hook.command,
      cwd: this.options.workspaceRoot,
      input,
      timeoutMs: timeoutOf(hook),
      env: this.options.env,
      signal,
    });
    const failed = outcome.exitCode !== 0;
    const message = failed && outcome.stderr !== '' ? lastLine(outcome.stderr) : undefined;
    this.options.emit({
      type: 'agent_update',
      update_type: 'hook_ran',
      hook: event,
      command: hook.command,
      ...(hook.match !== undefined ? { match: hook.match } : {}),
      ...(tool !== undefined ? { tool } : {}),
      exit_code: outcome.exitCode,
      duration_ms: Math.round(outcome.durationMs),
      ...(outcome.timedOut ? { timed_out: true } : {}),
      ...(message !== undefined ? { message } : {}),
      step: origin.step,
      task_id: origin.taskId,
    });
    return outcome;
  }
}

function timeoutOf(hook: HookConfig): number {
  return hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
}

function lastLine(text: string): string {
  const line =
    text
      .split('\n')
      .filter((part) => part.trim() !== '')
      .at(-1) ?? '';
  return line.length > EVENT_MESSAGE_LIMIT ? `${line.slice(0, EVENT_MESSAGE_LIMIT - 1)}…` : line;
}
