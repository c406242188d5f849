import type { RunningCommand } from './rows.js';

/** A command that has just started, as run_command reports it. */
export type CommandStart = Omit<RunningCommand, 'startedAt' | 'backgroundId' | 'host'> & {
  backgroundId?: string | null;
  /** The machine it runs on; this one when not given. */
  host?: string | null;
};

/**
 * Commands running now (run_command), one row each from start to end, for ending those a killed
 * process left behind.
 */
export interface CommandLog {
  /** Records a command that started. */
  started(input: CommandStart): Promise<void>;
  /** The command ended (by itself, or killed): its row goes. */
  ended(id: string): Promise<void>;
  /** Every recorded command, oldest first. */
  list(): Promise<RunningCommand[]>;
}
