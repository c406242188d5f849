import { feedbackText } from '../polyglot/index.js';
import { scoredTasks, type WebBenchProject, type WebBenchTask } from './project.js';

/**
 * A task as the agent gets it: Web-Bench's description, then where the code is and how it is
 * checked (the session goes on from the earlier tasks, as a user works through a backlog).
 */
export function taskGoal(project: WebBenchProject, task: WebBenchTask): string {
  return [
    task.description.trim(),
    '',
    '####',
    '',
    task.id === 'init'
      ? `This sets up the ${project.name} web project in this folder: ${scoredTasks(project.tasks).length} tasks follow.`
      : `This is ${task.id} of ${scoredTasks(project.tasks).length} of the ${project.name} web project in this folder; the earlier tasks are done.`,
    "The project's code is in src/: make the changes there (the checks use only src/, with the project's package.json and configuration as they are).",
    'After you finish, browser tests check this task and every earlier one. Do not install packages; do not leave a server running.',
  ].join('\n');
}

/** The second attempt's message: the failing checks' output, and what to do about it. */
export function retryGoal(task: WebBenchTask, checkOutput: string): string {
  return [
    feedbackText(checkOutput),
    '',
    '####',
    '',
    `The browser tests of ${task.id} and the earlier tasks failed with the output above. The tests are correct.`,
    'Fix the code in src/ so that they pass.',
  ].join('\n');
}
