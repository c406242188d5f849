import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Journal } from '../../agent/index.js';
import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/ports.js';
import type { RunningCommand } from '../../store/rows.js';
import { KILL_GRACE_MS, markedProcesses, signalMarked } from '../../tools/process/index.js';
import { isProcessGone } from '../../util/process-gone.js';

/** How often the processes of an orphaned command are looked at while they get to exit. */
const EXIT_POLL_MS = 50;

/** What the model reads as the result of a command that a killed process left running. */
export function orphanResult(command: RunningCommand, ended: boolean): string {
  const what = ended
    ? `its processes were still running afterwards (process group ${command.pgid}); taskweave ended them when the work resumed, so the command did not finish`
    : 'it was no longer running when the work resumed';
  return `taskweave was killed while this command ran: ${what}. Its effect is unknown: check what it did (files, installed packages) and run it again if it is still needed.`;
}

/**
 * Ends the commands that processes killed with `kill -9` left running (their rows are still in
 * the store and their owner process is gone), so that a resumed run does not start a second copy
 * next to the first. The processes are found by the mark in their environment; each gets
 * SIGTERM, then SIGKILL after KILL_GRACE_MS. The call's result in the session says so, for the
 * model (a resumed conversation takes it as the call's result) and the log (an agent_note).
 * Returns the commands handled, and whether each was still running.
 */
export async function endOrphanCommands(ctx: {
  store: Store;
  bus: EventBus;
}): Promise<{ command: RunningCommand; ended: boolean }[]> {
  // Only this machine's: a shared store also lists commands running on other machines, whose
  // pids mean nothing here.
  const orphans = (await ctx.store.commands.list()).filter(
    (command) => (command.host === null || command.host === hostname()) && isProcessGone(command.ownerPid),
  );
  const handled: { command: RunningCommand; ended: boolean }[] = [];
  for (const command of orphans) {
    const ended = await endProcesses(command);
    handled.push({ command, ended });
    const journal = new Journal({ sessionId: command.sessionId, store: ctx.store, bus: ctx.bus });
    if (command.backgroundId !== null) await reportBackgroundOrphan(journal, command, ended);
    else await reportOrphan(journal, command, ended);
    await journal.settled();
    await ctx.store.commands.ended(command.id);
  }
  return handled;
}

async function reportOrphan(journal: Journal, command: RunningCommand, ended: boolean): Promise<void> {
  await journal.emit(command.runId, {
    type: 'agent_update',
    update_type: 'agent_note',
    step: 0,
    content: ended
      ? `The command \`${command.command}\` was still running after taskweave was killed (process group ${command.pgid}); it was ended before the work resumed.`
      : `The command \`${command.command}\` was running when taskweave was killed; it had ended by the time the work resumed.`,
  });
  await journal.emit(command.runId, {
    type: 'tool_error',
    call_id: command.callId,
    name: 'run_command',
    error: orphanResult(command, ended),
    display: ended ? 'ended after a crash' : 'interrupted by a crash',
    duration_ms: Date.now() - command.startedAt,
    task_id: command.taskId ?? undefined,
  });
}

/**
 * A background command's call returned long ago: its end is reported as the end of the
 * background command (the web panel and /shells stop showing it as running), with a note.
 */
async function reportBackgroundOrphan(
  journal: Journal,
  command: RunningCommand,
  ended: boolean,
): Promise<void> {
  const id = command.backgroundId ?? '';
  await journal.emit(command.runId, {
    type: 'agent_update',
    update_type: 'agent_note',
    step: 0,
    content: backgroundOrphanNote(command, ended),
  });
  await journal.emit(command.runId, {
    type: 'background_ended',
    command_id: id,
    state: 'stopped',
    stopped_by: 'a resume after a crash',
    lines: [],
  });
}

/** What the user and the model are told of a background command a killed process left. */
export function backgroundOrphanNote(command: RunningCommand, ended: boolean): string {
  const what = `The background command ${command.backgroundId} (\`${command.command}\`)`;
  return ended
    ? `${what} was still running after taskweave was killed (process group ${command.pgid}); it was ended before the work resumed. Start it again if it is still needed.`
    : `${what} had ended by the time the work resumed after taskweave was killed. Start it again if it is still needed.`;
}

/** Ends the processes of one command; whether any was still running. */
async function endProcesses(command: RunningCommand): Promise<boolean> {
  if (markedProcesses(command.id).length === 0) return false;
  signalAll(command, 'SIGTERM');
  const deadline = Date.now() + KILL_GRACE_MS;
  while (Date.now() < deadline && markedProcesses(command.id).length > 0) {
    await new Promise((resolve) => setTimeout(resolve, EXIT_POLL_MS));
  }
  if (markedProcesses(command.id).length > 0) signalAll(command, 'SIGKILL');
  return true;
}

function signalAll(command: RunningCommand, signal: NodeJS.Signals): void {
  // The recorded group is signalled only while a process of it carries the mark: a group id
  // reused by an unrelated program is left alone.
  if (markedProcesses(command.id).some((pid) => processGroupOf(pid) === command.pgid)) {
    try {
      process.kill(-command.pgid, signal);
    } catch {
      // ESRCH: gone meanwhile.
    }
  }
  signalMarked(command.id, signal);
}

function processGroupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}
