import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { ServerEvent } from '../../../src/events/registry.js';
import type { MockTurn } from '../../helpers/mock-model.js';

/** A Reason reply: free text, then the JSON block the reason prompt asks for. */
export function reasonTurn(text: string, plan: string, finish = false): MockTurn {
  const block = JSON.stringify({ plan, tools_to_consider: ['write_file'], finish });
  return { text: `${text}\n\`\`\`json\n${block}\n\`\`\`` };
}

/** An Observe reply: free text, then the JSON block the observe prompt asks for. */
export function observeTurn(observation: string, shouldContinue: boolean, finalAnswer: string | null = null) {
  const block = JSON.stringify({ observation, should_continue: shouldContinue, final_answer: finalAnswer });
  return { text: `Checked the results.\n\`\`\`json\n${block}\n\`\`\`` } satisfies MockTurn;
}

/** The phase a model call was tagged with. */
export function phaseOf(call: LanguageModelV3CallOptions): unknown {
  const tag = call.providerOptions?.taskweave as { phase?: unknown } | undefined;
  return tag?.phase;
}

/** The agent updates of one kind. */
export function updatesOf(events: ServerEvent[], kind: string) {
  return events.filter((event) => event.type === 'agent_update' && event.update_type === kind) as Extract<
    ServerEvent,
    { type: 'agent_update' }
  >[];
}

/** The event kinds without the streamed text and the token reports, for order assertions. */
export function phaseKinds(kinds: string[]): string[] {
  return kinds.filter((kind) => kind !== 'agent_text_delta' && kind !== 'model_usage');
}
