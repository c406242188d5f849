import type { HookEvent } from '../../config/hooks-config.js';

/** Where a hook's event happened: the step and plan task, for its hook_ran event. */
export interface HookOrigin {
  step: number;
  taskId?: string;
}

/** A tool call as the tool hooks see it. */
export interface HookedCall {
  id: string;
  name: string;
  args: unknown;
}

/**
 * The user's hooks as a run calls them: around each tool call, and at the run's moments.
 * `hooks/` implements it (RunHooks); declared here so that a run's state names it without
 * climbing to it.
 */
export interface HookRunner {
  /** Whether any hook is configured for this moment (nothing is built for the event otherwise). */
  has(event: HookEvent): boolean;
  /** The refusal of the first failing beforeTool hook (what the model reads), or undefined. */
  beforeTool(call: HookedCall, origin: HookOrigin, signal?: AbortSignal): Promise<string | undefined>;
  /** Runs the afterTool hooks matching the call; their failures are announced, never fatal. */
  afterTool(
    call: HookedCall,
    result: { output: string; isError: boolean },
    origin: HookOrigin,
    signal?: AbortSignal,
  ): Promise<void>;
  /** Runs the hooks of a run's moment (runStart, runEnd, waitingForInput) with `details` on stdin. */
  at(event: 'runStart' | 'runEnd' | 'waitingForInput', details: object, origin: HookOrigin): Promise<void>;
}
