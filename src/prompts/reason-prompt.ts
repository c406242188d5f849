import { fillTemplate, loadTemplate } from './template.js';

/**
 * Fills the Reason prompt of the `roa` loop: a plain call (no tools) that asks the model to think
 * the step through and end with a `{ plan, tools_to_consider, finish }` block.
 */
export function buildReasonPrompt(input: { step: number; toolNames: readonly string[] }): string {
  return fillTemplate(loadTemplate('reason'), {
    step: String(input.step),
    tools: input.toolNames.length > 0 ? input.toolNames.join(', ') : 'no tools',
  }).trim();
}
