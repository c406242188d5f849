import type { EventPayload } from '../../events/registry.js';
import { type CommandOutcome, releaseGroup, runShellCommand } from '../process/run-shell-command.js';
import { BackgroundCommand, type BackgroundCommandInfo, stateText } from './background-command.js';

/** Where a command's start and end are recorded (types.ts's CommandRecorder, which refers to this file). */
interface CommandRecorder {
  started(command: { mark: string; pgid: number; command: string; backgroundId?: string }): void;
  ended(mark: string): void;
}

/** How many background commands a session may have running at once unless config `background.max` says. */
export const DEFAULT_BACKGROUND_MAX = 4;
/** A background command's output event goes out at most this often (its last lines, not every chunk). */
export const BACKGROUND_OUTPUT_EVENT_MS = 1_000;
/**
 * The most characters of output lines one command's background_output events carry in all: the
 * event log keeps them, so a command that chatters for days cannot fill the store. Later output
 * is read with read_background_output (and its end event carries its last lines).
 */
export const BACKGROUND_OUTPUT_EVENTS_MAX_CHARS = 256_000;
/** The longest timer Node keeps (about 24.8 days): a background command has no time limit of its own. */
const NO_TIME_LIMIT_MS = 2_147_483_647;
/** Who stopped a command when its session ended. */
export const SESSION_END = 'the end of the session';
/** Who stopped a command when the model called stop_background_command. */
export const STOPPED_BY_MODEL = 'the model';

/** What starting a background command takes: the shell line and how run_command would launch it. */
export interface BackgroundStart {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The sandbox (`bwrap …`), as for a foreground command. */
  wrapper?: { program: string; args: string[]; input?: Buffer };
  /** The run and call that started it (its events carry the run; the call gets its id). */
  runId: string;
  callId: string;
  taskId?: string;
  /** Where the command log records it (an orphan left by a crash is ended on resume). */
  recorder?: CommandRecorder;
  /** Runs once it ended, before its end is announced; returns notes for the model (git config undone). */
  afterEnd?: () => Promise<string[]>;
}

/**
 * The background commands of one session: started by run_command with `background: true`, read
 * and stopped by id (`bg1`, `bg2`, …), at most `max` running at once. Each start, its output
 * (throttled) and its end are events; an end the model did not cause itself waits in
 * `takeEndNotices` for the model's next turn. `close` stops them all but the kept ones.
 */
/** A note for the model's next turn, and what the user is shown of it when that differs. */
export interface EndNotice {
  content: string;
  shown?: string;
}

export class BackgroundCommands {
  private readonly commands = new Map<string, BackgroundCommand>();
  private readonly unannounced: BackgroundCommand[] = [];
  private readonly notes: string[] = [];
  /** The end handling of each command still going (undo of git config, the end event). */
  private readonly endings = new Map<BackgroundCommand, Promise<void>>();
  private readonly recorders = new Map<BackgroundCommand, CommandRecorder>();
  private counter = 0;

  constructor(
    private readonly options: {
      max: number;
      emit: (runId: string, payload: EventPayload) => void;
      /** Characters of output lines each command's output events may carry in all (default BACKGROUND_OUTPUT_EVENTS_MAX_CHARS). */
      outputEventsMaxChars?: number;
    },
  ) {}

  /** The most that may run at once. */
  get max(): number {
    return this.options.max;
  }

  /** How many commands this session started, running or ended. */
  get count(): number {
    return this.commands.size;
  }

  /** Starts a command, or says why not (too many are running). */
  start(spec: BackgroundStart): BackgroundCommand | { refused: string } {
    const running = this.list().filter((info) => info.state === 'running');
    if (running.length >= this.options.max) {
      return {
        refused:
          `${running.length} background commands are already running in this session (${running.map((info) => info.id).join(', ')}), ` +
          `the most it may run at once (config background.max, default ${DEFAULT_BACKGROUND_MAX}). ` +
          'Stop one that is no longer needed with stop_background_command, or run this command in the foreground.',
      };
    }
    this.counter += 1;
    const id = `bg${this.counter}`;
    const abort = new AbortController();
    let command: BackgroundCommand | undefined;
    let started: { pgid: number; mark: string } | undefined;
    const onOutput = (chunk: string): void => {
      command?.push(chunk);
      if (command) this.outputSoon(command, spec.runId);
    };
    const run = runShellCommand({
      command: spec.command,
      cwd: spec.cwd,
      env: spec.env,
      wrapper: spec.wrapper,
      timeoutMs: NO_TIME_LIMIT_MS,
      signal: abort.signal,
      maxOutputCharsPerStream: 1_000,
      onStdout: onOutput,
      onStderr: onOutput,
      onStart: ({ pid, mark }) => {
        spec.recorder?.started({ mark, pgid: pid, command: spec.command, backgroundId: id });
        if (command) command.process = { pgid: pid, mark };
        else started = { pgid: pid, mark };
      },
    }).catch(
      (error: unknown): CommandOutcome => ({
        end: { kind: 'exited', exitCode: 127 },
        stdout: '',
        stderr: `The command could not be started: ${error instanceof Error ? error.message : String(error)}`,
        durationMs: 0,
      }),
    );
    command = new BackgroundCommand(id, spec.command, abort, run);
    command.process = started;
    this.commands.set(id, command);
    if (spec.recorder) this.recorders.set(command, spec.recorder);
    const ready = command;
    this.options.emit(spec.runId, {
      type: 'background_started',
      command_id: id,
      call_id: spec.callId,
      command: spec.command,
      task_id: spec.taskId,
    });
    const ending = ready.finished.then(async (outcome) => {
      const info = ready.info();
      if (info.state === 'running') return; // cannot be: finished resolves with the end
      if (outcome.durationMs === 0 && outcome.stderr !== '') ready.push(`${outcome.stderr}\n`);
      if (ready.process) spec.recorder?.ended(ready.process.mark);
      const notes = spec.afterEnd ? await spec.afterEnd().catch(() => []) : [];
      for (const note of notes) this.notify(`${id}: ${note}`);
      this.clearOutputTimer(ready);
      this.options.emit(spec.runId, {
        type: 'background_ended',
        command_id: id,
        state: info.state,
        exit_code: info.exitCode,
        stopped_by: info.stoppedBy,
        lines: info.lastLines,
      });
      if (info.stoppedBy !== STOPPED_BY_MODEL) this.unannounced.push(ready);
    });
    this.endings.set(ready, ending);
    return command;
  }

  /** The command with this id, if this session started it. */
  get(id: string): BackgroundCommand | undefined {
    return this.commands.get(id.trim());
  }

  /** Stops a command (see BackgroundCommand.stop); resolves once its end was handled and announced. */
  async stop(command: BackgroundCommand, by: string): Promise<void> {
    await command.stop(by);
    await this.endings.get(command);
  }

  /** Every command of the session, oldest first, with its state and last lines. */
  list(): BackgroundCommandInfo[] {
    return [...this.commands.values()].map((command) => command.info());
  }

  /**
   * What the model has not been told yet (`content`; `shown` is the user's part of it where the
   * model's has an instruction the user has no use for): the commands that ended by themselves (or were stopped
   * by the user) since the last call, one note each.
   */
  takeEndNotices(): EndNotice[] {
    const ended = this.unannounced.splice(0);
    const notes = this.notes.splice(0).map((content) => ({ content }));
    return notes.concat(
      ended.map((command) => {
        const info = command.info();
        const lines = info.lastLines.length > 0 ? ` Its last lines:\n${info.lastLines.join('\n')}` : '';
        const shown = `The background command ${info.id} (\`${info.command}\`) has ended: ${stateText(info)}.${lines}`;
        return {
          content: `${shown}\nread_background_output with id ${info.id} gives the output you have not read.`,
          shown,
        };
      }),
    );
  }

  /** Adds a note for the model's next turn (a background command a crashed process left was ended). */
  notify(note: string): void {
    this.notes.push(note);
  }

  /**
   * The session ends: every running command is stopped, but a kept one, which is left running
   * (and dropped from the command log, so that a later resume does not end it as an orphan).
   */
  async close(): Promise<void> {
    const stops: Promise<unknown>[] = [];
    for (const command of this.commands.values()) {
      if (!command.running) continue;
      if (command.kept && command.process) {
        releaseGroup(command.process.pgid);
        this.recorders.get(command)?.ended(command.process.mark);
        continue;
      }
      // Resolves once its end is handled and announced (before the session's journal closes).
      stops.push(this.stop(command, SESSION_END));
    }
    await Promise.all(stops);
  }

  private readonly outputTimers = new Map<BackgroundCommand, NodeJS.Timeout>();
  /** Per command: the characters its output events carried so far, and the lines of the last one. */
  private readonly outputSent = new Map<BackgroundCommand, { chars: number; last: string }>();

  private outputSoon(command: BackgroundCommand, runId: string): void {
    if (this.outputTimers.has(command)) return;
    const cap = this.options.outputEventsMaxChars ?? BACKGROUND_OUTPUT_EVENTS_MAX_CHARS;
    const sent = this.outputSent.get(command) ?? { chars: 0, last: '' };
    if (sent.chars >= cap) return;
    const timer = setTimeout(() => {
      this.outputTimers.delete(command);
      if (!command.running) return;
      const lines = command.info().lastLines;
      // Lines that did not change (a long line past its cut) are not sent again.
      const joined = lines.join('\n');
      if (joined === sent.last) return;
      sent.last = joined;
      sent.chars += joined.length;
      this.outputSent.set(command, sent);
      const full = sent.chars >= cap;
      this.options.emit(runId, {
        type: 'background_output',
        command_id: command.id,
        lines: full ? [...lines, outputEventsEndNote(command.id, cap)] : lines,
      });
    }, BACKGROUND_OUTPUT_EVENT_MS);
    timer.unref();
    this.outputTimers.set(command, timer);
  }

  private clearOutputTimer(command: BackgroundCommand): void {
    clearTimeout(this.outputTimers.get(command));
    this.outputTimers.delete(command);
    this.outputSent.delete(command);
  }
}

/** The last line of a command's last output event: why no more follow. */
function outputEventsEndNote(id: string, cap: number): string {
  return `… [${id} printed more than ${cap} characters of output events: later lines show when it ends; read_background_output reads them]`;
}
