import type { Tool } from '../tools/types.js';
import { fillTemplate, loadTemplate } from './template.js';

/** The system prompt of the tool-first loop. */
export function buildSystemPrompt(options: { workspace: string; tools: Tool[] }): string {
  const toolList = options.tools.map((entry) => `- ${entry.name}: ${entry.description.split('\n')[0]}`);
  return fillTemplate(loadTemplate('system'), {
    workspace: options.workspace,
    tools: `# Tools\n${toolList.join('\n')}`,
  }).trim();
}
