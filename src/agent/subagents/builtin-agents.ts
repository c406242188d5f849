import { fillSection } from '../../prompts/template.js';
import type { Subagent } from './subagent.js';

/** The template of the delegate tool and the built-in agents (src/prompts/subagents.md). */
export const SUBAGENT_TEXTS = 'subagents';

/** The tools `explore` gets: reading and searching, nothing that changes or runs anything. */
const EXPLORE_TOOLS = ['read_file', 'search_code', 'code_navigation'];

/**
 * The built-in agents: `explore` (read and search only, meant to run several at once) and
 * `general` (the parent's tools).
 */
export function builtinAgents(): Subagent[] {
  return [
    {
      name: 'explore',
      description: fillSection(SUBAGENT_TEXTS, 'explore-description'),
      instructions: fillSection(SUBAGENT_TEXTS, 'explore-instructions'),
      tools: EXPLORE_TOOLS,
    },
    {
      name: 'general',
      description: fillSection(SUBAGENT_TEXTS, 'general-description'),
      instructions: fillSection(SUBAGENT_TEXTS, 'general-instructions'),
    },
  ];
}

/**
 * The agents of a run: the built-in ones, then the given ones (a user or workspace agent of the
 * same name as a built-in replaces it).
 */
export function runAgents(given: readonly Subagent[]): Subagent[] {
  const names = new Set(given.map((agent) => agent.name));
  return [...builtinAgents().filter((agent) => !names.has(agent.name)), ...given];
}
