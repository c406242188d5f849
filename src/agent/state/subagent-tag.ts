/** Who a child run is: the agent's name and the `delegate` call that started it. */
export interface SubagentTag {
  agent: string;
  parentCallId: string;
  /** 1 for a child of the top-level run, 2 for its child, and so on. */
  depth: number;
}

/** The fields a subagent's events carry (none for the run's own events). */
export function subagentFields(tag: SubagentTag | undefined): { parent_call_id?: string; agent?: string } {
  return tag === undefined ? {} : { parent_call_id: tag.parentCallId, agent: tag.agent };
}
