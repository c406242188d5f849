import { originOf } from '../model/base-url.js';
import { ModelConfigError } from '../model/types.js';
import { stripControlSequences } from '../util/terminal-text.js';
import { updateUserConfig } from './trust-base-url.js';

/** What a workspace's config chose that nobody else did: its model, its base URL, or both. */
export interface WorkspaceModelChoice {
  /** The workspace folder (absolute, symbolic links resolved). */
  workspace: string;
  /** The workspace config file that chose them. */
  workspaceFile: string;
  /** The user's own config file, where accepted choices are remembered. */
  userFile: string;
  /** The model it chose, when that model is used. */
  model?: string;
  /** The base URL it chose, when that URL is used. */
  baseUrl?: string;
}

/** A choice the user accepted, as `workspaceModels` in their config holds it. */
export interface RememberedWorkspaceModel {
  workspace: string;
  model?: string;
  baseUrl?: string;
}

/**
 * A workspace config (which a cloned repository brings along, or a command could write) picks
 * where the user's goal and every file the agent reads are sent. Its `model` and `baseUrl` are
 * used only where the user chose none, and only once the user accepted them for this workspace:
 * an entry of `workspaceModels` in their own config with the same folder, model and URL. Anything
 * else is a WorkspaceModelError (a terminal asks; elsewhere it is exit 2).
 */
export function checkWorkspaceModel(
  choice: WorkspaceModelChoice,
  remembered: readonly RememberedWorkspaceModel[],
): void {
  const accepted = remembered.some(
    (entry) =>
      entry.workspace === choice.workspace &&
      entry.model === choice.model &&
      entry.baseUrl === choice.baseUrl,
  );
  if (!accepted) throw new WorkspaceModelError(choice);
}

/** Remembers in the user's config that they accepted a workspace's model and URL for that workspace. */
export async function rememberWorkspaceModel(choice: WorkspaceModelChoice): Promise<void> {
  const entry: RememberedWorkspaceModel = {
    workspace: choice.workspace,
    ...(choice.model === undefined ? {} : { model: choice.model }),
    ...(choice.baseUrl === undefined ? {} : { baseUrl: choice.baseUrl }),
  };
  await updateUserConfig(choice.userFile, 'remember the workspace model', (current) => {
    const list = Array.isArray(current.workspaceModels) ? current.workspaceModels : [];
    // One entry per workspace: accepting a new choice replaces the old one.
    const others = list.filter(
      (item: unknown) => (item as { workspace?: unknown } | null)?.workspace !== choice.workspace,
    );
    return { ...current, workspaceModels: [...others, entry] };
  });
}

/**
 * The lines that show a workspace's choice: the model, the URL and its origin each on a line
 * of their own, stripped of anything a terminal would act on.
 */
export function describeWorkspaceModel(choice: WorkspaceModelChoice): string[] {
  const lines: string[] = [];
  if (choice.model !== undefined) lines.push(`  model:  ${stripControlSequences(choice.model)}`);
  if (choice.baseUrl !== undefined) {
    lines.push(`  URL:    ${stripControlSequences(choice.baseUrl)}`);
    lines.push(`  origin: ${stripControlSequences(originOf(choice.baseUrl))}`);
  }
  return lines;
}

/**
 * A workspace config chose the model or its URL and the user has not accepted that for this
 * workspace (exit 2). It says what was chosen, so that a terminal front end can ask.
 */
export class WorkspaceModelError extends ModelConfigError {
  override name = 'WorkspaceModelError';
  readonly choice: WorkspaceModelChoice;

  constructor(choice: WorkspaceModelChoice) {
    const what = choice.model === undefined ? 'the server the model is sent to' : 'the model';
    super(
      [
        `The workspace config ${choice.workspaceFile} chooses ${what}, and you have not chosen one yourself:`,
        ...describeWorkspaceModel(choice),
        'Your goal and the files taskweave reads would go there. taskweave does not take this from a workspace without asking: run on a terminal to answer, or choose yourself with --model (and --base-url), TASKWEAVE_MODEL, or "model" in your own config ' +
          `${choice.userFile}.`,
      ].join('\n'),
    );
    this.choice = choice;
  }
}
