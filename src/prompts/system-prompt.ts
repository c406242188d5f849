import { findInstructions, instructionsSection } from './project-instructions.js';
import { fillSection, fillTemplate, loadTemplate } from './template.js';

/** Which loop the system prompt is for. */
export type PromptMode = 'simple' | 'planning' | 'task' | 'final' | 'subagent';

// Only what differs per mode: the tools describe themselves (definitions, sent once) and a
// task's instructions come with its task prompt.
const FINISHING: Record<Exclude<PromptMode, 'subagent'>, string> = {
  simple: `# Finishing
- Do every part of the goal; do not stop after the first step when it names several.
- When the whole goal is met, reply WITHOUT tool calls: a short summary of what you did and verified. That reply ends the run.`,
  planning: `# Planning
- A request with several distinct parts or steps: call plan_actions first. Nothing runs before the user approves the plan.
- A direct request: do it with tools, then reply WITHOUT tool calls with a short summary. That reply ends the run.`,
  task: `# Working on a plan
- The user message shows your one task of an approved plan, the plan's task list (taskweave keeps it) and your instructions.`,
  final: `# Finishing the plan
- Every task is done; the user message lists them with their summaries.`,
};

/**
 * The system prompt of the tool-first loop, ending with the AGENTS.md instructions that apply to
 * the workspace. It does not list the tools: their definitions go with every request already (native
 * tool calling), or are appended by the JSON protocol.
 */
export function buildSystemPrompt(options: {
  workspace: string;
  mode: PromptMode;
  /** Where HOME and XDG_CONFIG_HOME are read (the user's AGENTS.md); the process's by default. */
  env?: NodeJS.ProcessEnv;
}): string {
  return systemPrompts(options)(options.mode);
}

/**
 * The system prompts of one run, by mode: the AGENTS.md files are read on the first call (the
 * run's start, when the header names them) and every prompt of the run, each plan task's
 * included, is built from what was read then. An edited file counts from the next run.
 */
export function systemPrompts(options: {
  workspace: string;
  env?: NodeJS.ProcessEnv;
}): (mode: PromptMode) => string {
  let instructions: string | undefined;
  const built = new Map<PromptMode, string>();
  return (mode) => {
    let prompt = built.get(mode);
    if (prompt === undefined) {
      instructions ??= instructionsSection(
        findInstructions({ workspace: options.workspace, env: options.env }),
      );
      const base = fillTemplate(loadTemplate('system'), {
        workspace: options.workspace,
        // A subagent's job and how it answers (src/prompts/subagents.md).
        finishing: mode === 'subagent' ? fillSection('subagents', 'finishing') : FINISHING[mode],
      }).trim();
      prompt = instructions === '' ? base : `${base}\n\n${instructions}`;
      built.set(mode, prompt);
    }
    return prompt;
  };
}
