import { z } from 'zod';

/** The moments a hook can run at, in the order a run meets them. */
export const HOOK_EVENTS = ['runStart', 'beforeTool', 'afterTool', 'waitingForInput', 'runEnd'] as const;
/** One moment a hook can run at. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** How long a hook may run, by default, before it is killed. */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
/** The longest timeout a hook may ask for: a hook holds up the run while it runs. */
const MAX_HOOK_TIMEOUT_MS = 10 * 60_000;

/**
 * The `hooks` key of the user's config: the commands to run at each moment, in order. Made when
 * a config is first checked (most runs read none): building zod schemas costs start-up time.
 */
export const hooksConfigSchema = z.lazy(() => {
  const command = z.string().min(1, 'a hook needs a command');
  const timeoutMs = z.number().int().positive().max(MAX_HOOK_TIMEOUT_MS).optional();
  /** A hook that runs at a run's start or end, or when the run waits for the user. */
  const runHookSchema = z.strictObject({ command, timeoutMs });
  /**
   * A hook around tool calls: `match` names the tools it is for (`run_command`; several with `|`,
   * `edit_file|write_file`; `*` stands for any characters, `github__*`); every tool when left out.
   */
  const toolHookSchema = z.strictObject({
    match: z
      .string()
      .regex(
        /^[A-Za-z0-9_*|-]+$/,
        'a match is tool names (letters, digits, _, -, * for any characters) joined by |',
      )
      .optional(),
    command,
    timeoutMs,
  });
  return z.strictObject({
    runStart: z.array(runHookSchema).optional(),
    beforeTool: z.array(toolHookSchema).optional(),
    afterTool: z.array(toolHookSchema).optional(),
    waitingForInput: z.array(runHookSchema).optional(),
    runEnd: z.array(runHookSchema).optional(),
  });
});

/** The hooks of the config, by moment. */
export type HooksConfig = z.infer<typeof hooksConfigSchema>;
/** One configured hook (`match` only on the tool hooks). */
export interface HookConfig {
  command: string;
  match?: string;
  timeoutMs?: number;
}

/** Whether a hook's `match` takes a tool call of this name (no match: every tool). */
export function hookMatches(match: string | undefined, toolName: string): boolean {
  if (match === undefined) return true;
  return match.split('|').some((pattern) => {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()[\]\\-]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${source}$`).test(toolName);
  });
}
