import { fillSection } from './template.js';

/** What a tool tells the model about itself (defineTool's model-facing fields). */
export interface ToolTexts {
  description: string;
  whenToUse: string;
  whenNotToUse: string;
}

/**
 * A tool's model-facing description from a template of several texts: the sections
 * `<tool>-description`, `<tool>-when-to-use` and `<tool>-when-not-to-use` (see templateSections).
 */
export function toolTexts(template: string, tool: string): ToolTexts {
  return {
    description: fillSection(template, `${tool}-description`),
    whenToUse: fillSection(template, `${tool}-when-to-use`),
    whenNotToUse: fillSection(template, `${tool}-when-not-to-use`),
  };
}
