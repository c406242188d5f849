import type { ResolvedModel } from '../../model/types.js';

/** An agent a `delegate` call may name: built in (explore, general), or a Markdown file's. */
export interface Subagent {
  name: string;
  /** One short line the delegate tool's description lists. */
  description: string;
  /** The instructions added to its system prompt. */
  instructions: string;
  /** The names of the parent's tools it gets; all of them when left out. */
  tools?: readonly string[];
  /** Its step limit; the run's when left out. */
  maxSteps?: number;
  /** Its model; the run's when left out. */
  model?: ResolvedModel;
}

/** How a run's subagents are set up: which agents there are and how deep children may nest. */
export interface SubagentSettings {
  agents: readonly Subagent[];
  /** How many levels of children there may be: 1 (the default) means a child cannot delegate. */
  maxDepth: number;
}

/** Children of the top-level run only: a child cannot delegate further. */
export const DEFAULT_SUBAGENT_DEPTH = 1;
