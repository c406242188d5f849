import type { LoopStrategy } from './strategy.js';

/**
 * `react`, the tool-first loop: a step is the tool step alone (one model call with tools, then
 * the execution of its calls). The text that comes with tool calls is the step's reasoning.
 */
export const reactStrategy: LoopStrategy = { name: 'react', announcesActReasoning: true };
