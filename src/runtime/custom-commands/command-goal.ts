import { type ApprovalMode, isLooserApproval } from '../../tools/approval.js';
import { expandCommandText } from './expand-command.js';
import type { CustomCommand } from './load-commands.js';

/** The goal a command line starts, and the settings its front matter gives that goal. */
export interface CommandGoal {
  goal: string;
  settings: { loop?: 'react' | 'roa'; plan?: 'auto' | 'always' | 'never'; approval?: ApprovalMode };
}

/**
 * The goal of `/name args`: the command's text with the arguments put in, and its loop, plan
 * mode and approval mode. An approval mode looser than the session's is refused (an Error saying
 * so): a command file, the project's or the user's own, may tighten safety, never loosen it.
 */
export function commandGoal(
  command: CustomCommand,
  argumentText: string,
  sessionApproval: ApprovalMode,
): CommandGoal {
  if (command.approval !== undefined && isLooserApproval(command.approval, sessionApproval))
    throw new Error(
      `/${command.name} asks for approval "${command.approval}", looser than this session's "${sessionApproval}": a command file cannot loosen safety (${command.file}). Switch the session's mode yourself (/approval) if you mean it.`,
    );
  const settings: CommandGoal['settings'] = {};
  if (command.loop) settings.loop = command.loop;
  if (command.plan) settings.plan = command.plan;
  if (command.approval) settings.approval = command.approval;
  return { goal: expandCommandText(command.body, argumentText), settings };
}
