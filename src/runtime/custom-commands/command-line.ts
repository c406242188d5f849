import type { ApprovalMode } from '../../tools/approval.js';
import { RuntimeInputError } from '../setup/errors.js';
import { type CommandGoal, commandGoal } from './command-goal.js';
import { loadCustomCommands } from './load-commands.js';

/**
 * The goal a typed line `/name args` starts when `name` is a custom command (see
 * loadCustomCommands); undefined when the line names none (a built-in, a typo: the front end's
 * business). A command whose file could not be used, or that would loosen the session's
 * approval mode, is a RuntimeInputError saying why.
 */
export async function customCommandGoal(options: {
  line: string;
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
  sessionApproval: ApprovalMode;
  reserved?: readonly string[];
}): Promise<CommandGoal | undefined> {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(options.line.trim());
  if (!match) return undefined;
  const name = (match[1] ?? '').toLowerCase();
  if ((options.reserved ?? []).includes(name)) return undefined;
  const { commands, problems } = await loadCustomCommands(options);
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    const problem = problems.find((text) => text.includes(`/${name}.md:`) || text.includes(`${name}.md:`));
    if (problem) throw new RuntimeInputError(`The command /${name} cannot be used: ${problem}`);
    return undefined;
  }
  try {
    return commandGoal(command, match[2] ?? '', options.sessionApproval);
  } catch (error) {
    throw new RuntimeInputError(error instanceof Error ? error.message : String(error));
  }
}
