import { stateText } from '../../runtime/index.js';
import { shortenLine } from '../render/table.js';
import type { SessionState, SlashCommand } from './slash-command-types.js';

/** How many of a command's last lines `/shells` shows under it. */
const SHOWN_LINES = 3;

/**
 * `/shells`: the session's background commands with their last lines; `/shells stop <id>` ends
 * one, `/shells keep <id>` leaves one running when the session ends.
 */
export const SHELLS_COMMAND: SlashCommand = {
  usage: '/shells [stop|keep <id>]',
  help: 'background commands: list them, stop one, or keep one running after the session',
  run: (state, argument) => shells(state, argument.trim()),
};

async function shells(state: SessionState, argument: string): Promise<void> {
  const commands =
    state.sessionId === undefined ? undefined : state.runtime.background.existing(state.sessionId);
  if (argument === '') {
    const list = commands?.list() ?? [];
    if (list.length === 0) return state.say('No background commands in this session.');
    const width = Math.max(20, (state.columns?.() ?? 80) - 4);
    const lines = list.flatMap((info) => [
      `${state.style.bold(info.id)} ${stateText(info)}${info.kept ? ' · kept' : ''} · ${shortenLine(info.command, width - 30)}`,
      ...info.lastLines.slice(-SHOWN_LINES).map((line) => state.style.dim(`  │ ${shortenLine(line, width)}`)),
    ]);
    return state.say(lines.join('\n'));
  }
  const [action, id] = argument.split(/\s+/);
  if ((action !== 'stop' && action !== 'keep') || id === undefined)
    return state.say(`Usage: ${SHELLS_COMMAND.usage}`);
  const command = commands?.get(id);
  if (commands === undefined || command === undefined)
    return state.say(`There is no background command ${id} in this session.`);
  if (!command.running) return state.say(`${id} has already ended: ${stateText(command.info())}.`);
  if (action === 'stop') {
    await commands.stop(command, 'the user');
    return state.say(`${id} stopped.`);
  }
  command.keep();
  const sandboxed = state.runtime.safety.sandbox.kind === 'bwrap';
  state.say(
    sandboxed
      ? `${id} will be left running when this session ends — but not after taskweave exits: the sandbox ends with it (start taskweave with --sandbox off to keep a command beyond that).`
      : `${id} will be left running when this session ends (its output is no longer read then: redirect it to a file if you need it).`,
  );
}
