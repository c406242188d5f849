import { z } from 'zod';
import { fillSection } from '../../prompts/template.js';
import { builtSchema } from '../../tools/built-schemas.js';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool, ToolResult } from '../../tools/types.js';
import type { RunContext } from '../state/run-state.js';
import { SUBAGENT_TEXTS } from './builtin-agents.js';
import { runSubagent, type SubagentOutcome } from './child-run.js';
import type { Subagent, SubagentSettings } from './subagent.js';

/** The most of a child's answer its parent reads: the job was to come back short. */
export const SUBAGENT_ANSWER_LIMIT = 4 * 1024;

/** delegate's parameters, converted to JSON Schema by the build (tools/built-schemas.ts). */
const DELEGATE_PARAMETERS = builtSchema(
  'delegate',
  z.object({
    agent: z.string(),
    job: z.string().min(1).describe('All it needs: it sees nothing else.'),
  }),
);

/**
 * `delegate`: the model gives a self-contained job to an agent, which runs as a child run in a
 * fresh context (runSubagent); the child's answer, bounded, with the files it changed, is the
 * call's result. Read-only for the batching of a reply's calls, so that several delegate calls
 * run at once; what a child changes goes through the gate and the path locks call by call.
 */
export function delegateTool(run: RunContext, settings: SubagentSettings): Tool {
  const agents = new Map(settings.agents.map((agent) => [agent.name, agent]));
  const listing = settings.agents.map((agent) => `${agent.name} (${agent.description})`).join(', ');
  return defineTool({
    name: 'delegate',
    description: fillSection(SUBAGENT_TEXTS, 'delegate-description', { agents: listing }),
    whenToUse: fillSection(SUBAGENT_TEXTS, 'delegate-when-to-use'),
    whenNotToUse: fillSection(SUBAGENT_TEXTS, 'delegate-when-not-to-use'),
    readOnly: true,
    parameters: DELEGATE_PARAMETERS,
    async execute(args, ctx): Promise<ToolResult> {
      const agent = agents.get(args.agent);
      if (agent === undefined) {
        return {
          output: fillSection(SUBAGENT_TEXTS, 'unknown-agent', {
            agent: args.agent,
            agents: [...agents.keys()].join(', '),
          }),
          isError: true,
        };
      }
      const outcome = await runSubagent(run, {
        agent,
        job: args.job,
        callId: ctx.callId,
        step: ctx.step,
        taskId: ctx.taskId,
        signal: ctx.signal,
        extraTools: (child) => (childMayDelegate(child, settings) ? [delegateTool(child, settings)] : []),
      });
      return resultOf(agent, outcome);
    },
  });
}

/** Whether a child run may start children of its own (the depth limit). */
export function childMayDelegate(child: RunContext, settings: SubagentSettings): boolean {
  return (child.subagent?.depth ?? 0) < settings.maxDepth;
}

function resultOf(agent: Subagent, outcome: SubagentOutcome): ToolResult {
  const files =
    outcome.files.length === 0
      ? ''
      : `\n\n${fillSection(SUBAGENT_TEXTS, 'files-changed', { files: outcome.files.join(', ') })}`;
  if (outcome.status === 'completed' && outcome.answer !== undefined) {
    const answer = bounded(outcome.answer.trim());
    return { output: `${answer}${files}`, display: firstLine(answer), isError: false };
  }
  const reason = fillSection(SUBAGENT_TEXTS, 'ended-without-answer', {
    agent: agent.name,
    status: outcome.status,
    reason: outcome.reason ?? 'no reason given',
  });
  return {
    output: `${reason}${files}`,
    display: `${outcome.status}: ${outcome.reason ?? ''}`.trim(),
    isError: true,
  };
}

/** The answer's head within SUBAGENT_ANSWER_LIMIT, saying how much was cut. */
function bounded(answer: string): string {
  if (answer.length <= SUBAGENT_ANSWER_LIMIT) return answer;
  const cut = answer.length - SUBAGENT_ANSWER_LIMIT;
  return `${answer.slice(0, SUBAGENT_ANSWER_LIMIT)}\n… [the answer's last ${cut} characters were cut]`;
}

function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? '';
}
