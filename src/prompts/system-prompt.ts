import type { Tool } from '../tools/types.js';
import { findInstructions, instructionsSection } from './project-instructions.js';
import { fillTemplate, loadTemplate } from './template.js';

/** Which loop the system prompt is for. */
export type PromptMode = 'simple' | 'planning' | 'task' | 'final';

const FINISHING: Record<PromptMode, string> = {
  simple: `# Finishing
- Do every part of the goal. Do not stop after the first step when the goal names several.
- When the whole goal is met, reply WITHOUT tool calls: a short summary of what you did and what you verified. That reply ends the run.`,
  planning: `# Planning
- If the request has several distinct parts or steps, call plan_actions first with a plan of tasks (one objective each, with dependencies; independent tasks run in parallel). Nothing runs before the user approves the plan.
- A direct request needs no plan: do it with tools, then reply WITHOUT tool calls with a short summary. That reply ends the run.`,
  task: `# Working on a plan
- You work on ONE task of an approved plan at a time. The user message shows the request, the task list and the current task; taskweave keeps the list, you do not have to remember it.
- When the current task is done and verified, call task_completed with a summary. Call final_answer only when every task is done.`,
  final: `# Finishing the plan
- Every task of the approved plan is done; the user message lists them with their summaries.
- Call final_answer with the answer for the user: what was done and how it was verified.`,
};

const TODO_GUIDANCE = `
# The to-do list
- This workspace has a persistent to-do list that outlives this run: todo_add, todo_list, todo_complete, todo_fail.
- Use todo_add for work the user wants done later and for follow-up work you find outside the current request; check todo_list first so nothing is added twice.
- todo_complete only when that task's objective is met and verified; todo_fail with the reason when it cannot be done. The request you are working on now closes by itself when you finish.`;

/**
 * The system prompt of the tool-first loop, ending with the AGENTS.md instructions that apply to
 * the workspace (read when the prompt is built, so an edited file counts from the next run or task).
 */
export function buildSystemPrompt(options: {
  workspace: string;
  tools: Tool[];
  mode: PromptMode;
  /** Where HOME and XDG_CONFIG_HOME are read (the user's AGENTS.md); the process's by default. */
  env?: NodeJS.ProcessEnv;
}): string {
  const toolList = options.tools.map((entry) => `- ${entry.name}: ${entry.description.split('\n')[0]}`);
  const prompt = fillTemplate(loadTemplate('system'), {
    workspace: options.workspace,
    finishing: FINISHING[options.mode],
    todo: options.tools.some((entry) => entry.name === 'todo_add') ? TODO_GUIDANCE : '',
    tools: `# Tools\n${toolList.join('\n')}`,
  }).trim();
  const instructions = instructionsSection(
    findInstructions({ workspace: options.workspace, env: options.env }),
  );
  return instructions === '' ? prompt : `${prompt}\n\n${instructions}`;
}
