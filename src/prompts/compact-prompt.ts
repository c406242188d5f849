import { fillTemplate, loadTemplate } from './template.js';

/** A question the model asked the user, and what came back. */
export interface AskedQuestion {
  question: string;
  answer: string;
}

/** The request of the `compact` call, sent after the messages it summarises. */
export function buildCompactRequest(): string {
  return loadTemplate('compact').trim();
}

/**
 * The message that stands for the older part of a compacted conversation: the parts kept exactly
 * (goal, task list, questions, files changed), then the model's summary.
 */
export function buildCompactedSummary(input: {
  replaced: number;
  goals: readonly string[];
  taskList: string;
  questions: readonly AskedQuestion[];
  filesChanged: readonly string[];
  summary: string;
}): string {
  return fillTemplate(loadTemplate('compacted'), {
    replaced: String(input.replaced),
    goals: input.goals.length === 0 ? '(not recorded)' : input.goals.join('\n\n'),
    task_list: input.taskList,
    questions:
      input.questions.length === 0
        ? '(none)'
        : input.questions
            .map((entry, index) => `${index + 1}. ${entry.question}\n   → ${entry.answer}`)
            .join('\n'),
    files:
      input.filesChanged.length === 0 ? '(none)' : input.filesChanged.map((file) => `- ${file}`).join('\n'),
    summary: input.summary.trim(),
  }).trim();
}
