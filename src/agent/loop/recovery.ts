/**
 * Deterministic recovery rules. Errors are handled by counting, not by asking the model to
 * reason about them.
 */

/** The same failing action this many times → the agent asks the user for guidance. */
export const SAME_FAILURE_LIMIT = 3;
/** The same call with the same arguments this many times in a row → a note to the model. */
export const REPETITION_WARN_LIMIT = 3;
/** … and this many times → the run stops as failed. */
export const REPETITION_FAIL_LIMIT = 5;

/** One executed tool call, as the rules see it. */
export interface ObservedCall {
  name: string;
  args: unknown;
  isError: boolean;
  output: string;
}

export type RecoveryVerdict =
  | { kind: 'ok' }
  | { kind: 'warn_repetition'; call: string; count: number }
  | { kind: 'fail_repetition'; call: string; count: number }
  | { kind: 'ask_user'; action: string; count: number; lastError: string };

/**
 * The "action" a failure belongs to: the tool plus what it acted on (the command or the path),
 * so that the same build failing with different output still counts as the same action.
 */
export function actionKey(name: string, args: unknown): string {
  if (args !== null && typeof args === 'object') {
    const record = args as Record<string, unknown>;
    // The same command in another folder is another action.
    const where = typeof record.working_dir === 'string' ? ` in ${record.working_dir}` : '';
    for (const field of ['command', 'path', 'pattern']) {
      const value = record[field];
      if (typeof value === 'string') return `${name}(${value})${where}`;
    }
  }
  return `${name}(${stableStringify(args)})`;
}

/** JSON with sorted keys, so that equal arguments give equal text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // Code-unit order: stable and cheap (localeCompare's first call loads ICU's collator, ~20 ms
    // in the middle of a worker's first goal).
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${stableStringify(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Tracks failures per action and consecutive identical calls over a run. */
export class RecoveryTracker {
  private readonly failures = new Map<string, number>();
  private lastCall: string | undefined;
  private repeatCount = 0;

  /** Records one call and says what the rules require now. */
  observe(call: ObservedCall): RecoveryVerdict {
    const signature = `${call.name}(${stableStringify(call.args)})`;
    this.repeatCount = signature === this.lastCall ? this.repeatCount + 1 : 1;
    this.lastCall = signature;

    let verdict: RecoveryVerdict = { kind: 'ok' };
    if (call.isError) {
      const action = actionKey(call.name, call.args);
      const count = (this.failures.get(action) ?? 0) + 1;
      this.failures.set(action, count);
      if (count === SAME_FAILURE_LIMIT) verdict = { kind: 'ask_user', action, count, lastError: call.output };
    } else {
      this.failures.delete(actionKey(call.name, call.args));
    }
    if (this.repeatCount >= REPETITION_FAIL_LIMIT) {
      return { kind: 'fail_repetition', call: signature, count: this.repeatCount };
    }
    if (this.repeatCount === REPETITION_WARN_LIMIT && verdict.kind === 'ok') {
      return { kind: 'warn_repetition', call: signature, count: this.repeatCount };
    }
    return verdict;
  }

  /** After the user gave guidance for an action, its count starts again. */
  resetAction(action: string): void {
    this.failures.delete(action);
  }
}
