import {
  APPROVAL_MODES,
  type ApprovalMode,
  type CommandGoal,
  RuntimeInputError,
} from '../../runtime/index.js';
import { relativeTime } from '../render/relative-time.js';
import { safetyLine } from '../render/safety-line.js';
import { shortenLine } from '../render/table.js';
import { renderTaskTable } from '../render/task-output.js';
import type { Style } from '../render/terminal.js';
import { CHECKPOINT_COMMANDS } from './checkpoint-commands.js';
import { costLines } from './cost-lines.js';
import { EXPORT_COMMANDS } from './export-command.js';
import { sessionRecap } from './session-recap.js';
import { SHELLS_COMMAND } from './shells-command.js';
import type { SessionState, SlashCommand } from './slash-command-types.js';

export type { SessionState, SlashCommand } from './slash-command-types.js';

const PLAN_MODES = ['auto', 'always', 'never'] as const;
const LOOPS = ['react', 'roa'] as const;
const SESSION_LIST_LIMIT = 10;

/** The commands of the interactive session, by name (without the slash). */
export const SLASH_COMMANDS: Record<string, SlashCommand> = {
  help: {
    usage: '/help',
    help: 'these commands, and the keys',
    run: async (state) => state.say(`${helpText(state.style)}\n${await customHelp(state)}`.trimEnd()),
  },
  model: {
    usage: '/model',
    help: 'the model this session uses (start taskweave with --model to use another)',
    run: (state) =>
      state.say(
        `model: ${state.runtime.model.id} — to use another, quit and start taskweave --model <provider:model>`,
      ),
  },
  plan: {
    usage: '/plan [auto|always|never]',
    help: 'show or set whether goals are planned as task graphs',
    run: (state, argument) => choose(state, 'plan', argument, PLAN_MODES),
  },
  loop: {
    usage: '/loop [react|roa]',
    help: 'show or set how each step runs (roa: reason → act → observe)',
    run: (state, argument) => choose(state, 'loop', argument, LOOPS),
  },
  approval: {
    usage: '/approval [ask|edits|auto|plan-only]',
    help: 'show or switch when tool calls are asked (from the next call on, also in a running goal)',
    run: (state, argument) => switchApproval(state, argument),
  },
  shells: SHELLS_COMMAND,
  tasks: {
    usage: '/tasks',
    help: "the workspace's to-do list",
    run: async (state) => {
      const tasks = await state.runtime.tasks.list();
      state.say(
        tasks.length === 0
          ? 'The to-do list is empty.'
          : renderTaskTable({ tasks, style: state.style }).trimEnd(),
      );
    },
  },
  sessions: {
    usage: '/sessions',
    help: 'the latest sessions of this workspace',
    run: async (state) => {
      const found = await state.runtime.sessions.list({ limit: SESSION_LIST_LIMIT });
      if (found.length === 0) return state.say('No sessions yet.');
      const rows = found.map(({ session, status }) => {
        const mark = session.id === state.sessionId ? '*' : ' ';
        return `${mark} ${session.id}  ${relativeTime(session.updatedAt)}  ${status}  ${shortenLine(session.title, 50)}`;
      });
      state.say(`${rows.join('\n')}\n${state.style.dim('/resume <id> continues one (* is this session)')}`);
    },
  },
  resume: {
    usage: '/resume <id|last>',
    help: 'continue another session of this workspace with its history',
    run: async (state, argument) => {
      if (argument === '')
        return state.say('Say which session: /resume <id> or /resume last (/sessions lists them).');
      try {
        const session = await state.runtime.sessions.find(argument);
        state.sessionId = session.id;
        state.say(`Continuing session ${session.id}: ${session.title}`);
        const recap = await sessionRecap({
          runtime: state.runtime,
          sessionId: session.id,
          style: state.style,
          columns: process.stdout.columns || 80,
        });
        if (recap.length > 0) state.say(recap.join('\n'));
      } catch (error) {
        state.say(state.style.red((error as Error).message));
      }
    },
  },
  clear: {
    usage: '/clear',
    help: 'clear the screen and start a new session (the next goal has no history)',
    run: (state) => {
      state.sessionId = undefined;
      state.clearScreen();
      state.say(state.style.dim('New session: the next goal starts without history.'));
    },
  },
  cost: {
    usage: '/cost',
    help: "the tokens and money this session used, today's total and the budget",
    run: async (state) => state.say(await costLines(state)),
  },
  ...CHECKPOINT_COMMANDS,
  ...EXPORT_COMMANDS,
  quit: { usage: '/quit', help: 'end the session (Ctrl-C twice, or Ctrl-D, too)', run: () => 'quit' },
};

/**
 * Runs a line that starts with `/`: a built-in command, or a custom command (a Markdown file of
 * the project or the user), which resolves to the goal to run; unknown commands get the list.
 */
export async function runSlashCommand(
  state: SessionState,
  line: string,
): Promise<'quit' | CommandGoal | undefined> {
  const [name = '', ...rest] = line.slice(1).trim().split(/\s+/);
  const command = SLASH_COMMANDS[name.toLowerCase()];
  if (!command) {
    let custom: CommandGoal | undefined;
    try {
      custom = await state.runtime.customCommandGoal(line, Object.keys(SLASH_COMMANDS));
    } catch (error) {
      if (!(error instanceof RuntimeInputError)) throw error;
      state.say(state.style.yellow(error.message));
      return undefined;
    }
    if (custom) return custom;
    state.say(`${state.style.yellow(`Unknown command /${name}.`)} ${helpText(state.style)}`);
    const listed = await customHelp(state);
    if (listed !== '') state.say(listed);
    return undefined;
  }
  return (await command.run(state, rest.join(' ').trim())) === 'quit' ? 'quit' : undefined;
}

/** The custom commands with their descriptions, and the files that could not be used. */
async function customHelp(state: SessionState): Promise<string> {
  const { style } = state;
  const { commands, problems } = await state.runtime.customCommands(Object.keys(SLASH_COMMANDS));
  const lines: string[] = [];
  if (commands.length > 0) {
    const usages = commands.map((command) => `/${command.name}`);
    const width = Math.max(...usages.map((usage) => usage.length));
    lines.push('Custom commands (.taskweave/commands/, ~/.config/taskweave/commands/):');
    commands.forEach((command, index) => {
      const about = command.description ?? `${command.source} command`;
      lines.push(`  ${usages[index]!.padEnd(width)}  ${style.dim(about)}`);
    });
  }
  for (const problem of problems) lines.push(style.yellow(`  ! ${problem}`));
  return lines.join('\n');
}

function choose<K extends 'plan' | 'loop'>(
  state: SessionState,
  setting: K,
  argument: string,
  choices: readonly string[],
): undefined {
  const current = state.runtime.settings[setting] ?? (setting === 'loop' ? 'react' : 'auto');
  if (argument === '') {
    state.say(`${setting}: ${current} (choices: ${choices.join(', ')})`);
    return;
  }
  if (!choices.includes(argument)) {
    state.say(state.style.yellow(`"${argument}" is not a ${setting} choice: ${choices.join(', ')}.`));
    return;
  }
  state.runtime.configure({ [setting]: argument });
  state.say(`${setting}: ${argument} (from the next goal on)`);
}

function switchApproval(state: SessionState, argument: string): void {
  const { runtime, style } = state;
  if (argument === '') {
    state.say(`${safetyLine(runtime)} ${style.dim(`(choices: ${APPROVAL_MODES.join(', ')})`)}`);
    return;
  }
  const mode = APPROVAL_MODES.find((choice) => choice === argument.toLowerCase());
  if (mode === undefined) {
    state.say(style.yellow(`"${argument}" is not an approval mode: ${APPROVAL_MODES.join(', ')}.`));
    return;
  }
  runtime.setApprovalMode(mode);
  state.say(`approval: ${mode} — ${APPROVAL_EFFECTS[mode]} (from the next tool call on)`);
  if (mode === 'auto' && runtime.safety.sandboxUnavailable !== undefined)
    state.say(
      style.yellow(
        'Commands are still asked: they cannot be sandboxed here (--sandbox off runs them unasked).',
      ),
    );
}

/** What each mode means, in the words of the README's table. */
const APPROVAL_EFFECTS: Record<ApprovalMode, string> = {
  ask: 'commands, file changes and MCP tools are asked',
  edits: 'file changes run, commands and MCP tools are asked',
  auto: 'everything runs, commands inside the sandbox',
  'plan-only': 'only reading tools run, nothing changes',
};

function helpText(style: Style): string {
  const width = Math.max(...Object.values(SLASH_COMMANDS).map((command) => command.usage.length));
  const commands = Object.values(SLASH_COMMANDS).map(
    (command) => `  ${command.usage.padEnd(width)}  ${style.dim(command.help)}`,
  );
  return [
    'Type a goal and press Enter; the next goal continues the same session. @path adds a file to the goal.',
    style.dim('\\ Enter or Shift+Enter: a new line · Tab: complete /commands and @paths'),
    style.dim('A paste of several lines stays one message: [Pasted text #1 +N lines]'),
    ...commands,
    style.dim('Keys: Esc stops the run · Ctrl-C stops the run, twice at the prompt quits · ↑/↓ history'),
  ].join('\n');
}
