import { realpath } from 'node:fs/promises';
import {
  DEFAULT_SUBAGENT_DEPTH,
  runAgents,
  type Subagent,
  type SubagentSettings,
} from '../../agent/index.js';
import { type AgentFile, loadAgentFiles } from '../../config/agent-files.js';
import type { TaskweaveConfig } from '../../config/config-file.js';
import { resolveModel } from '../../config/resolve-model.js';
import type { ResolvedModel } from '../../model/types.js';

/** A run's subagents, and one note per agent file that could not be used (shown at each run's start). */
export interface SubagentSetup {
  settings: SubagentSettings;
  notes: string[];
}

/**
 * The agents `delegate` may start in this workspace: the built-in ones and the Markdown files of
 * the user's and the workspace's `agents/` folders. An agent naming a model gets it resolved like
 * `--model`; a workspace agent's model must be the run's own or one the user accepted for this
 * workspace (`workspaceModels` of their config), else the agent is refused with the reason.
 */
export async function loadSubagents(options: {
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
  model: ResolvedModel;
  config: TaskweaveConfig;
}): Promise<SubagentSetup> {
  const loaded = await loadAgentFiles(options);
  const notes = loaded.problems.map((problem) => `Agent file ${problem}`);
  const agents: Subagent[] = [];
  const workspace = await realpath(options.workspaceRoot);
  for (const file of loaded.agents) {
    try {
      agents.push(await subagentOf(file, { ...options, workspace }));
    } catch (error) {
      notes.push(`Agent file ${file.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const maxDepth = (options.config.subagents || undefined)?.depth ?? DEFAULT_SUBAGENT_DEPTH;
  return { settings: { agents: runAgents(agents), maxDepth }, notes };
}

async function subagentOf(
  file: AgentFile,
  context: { workspace: string; env: NodeJS.ProcessEnv; model: ResolvedModel; config: TaskweaveConfig },
): Promise<Subagent> {
  const agent: Subagent = {
    name: file.name,
    description: file.description,
    instructions: file.instructions,
    ...(file.tools === undefined ? {} : { tools: file.tools }),
    ...(file.maxSteps === undefined ? {} : { maxSteps: file.maxSteps }),
  };
  if (file.model === undefined || file.model === context.model.id) return agent;
  if (file.source === 'workspace') {
    const accepted = (context.config.workspaceModels ?? []).some(
      (entry) => entry.workspace === context.workspace && entry.model === file.model,
    );
    if (!accepted)
      throw new Error(
        `refused: it names the model ${file.model}, which your config does not allow for this workspace (a workspace agent may use the run's model, or one of your workspaceModels for this folder)`,
      );
  }
  const {
    config: _config,
    source: _source,
    ...model
  } = await resolveModel({
    model: file.model,
    cwd: context.workspace,
    env: context.env,
  });
  return { ...agent, model };
}
