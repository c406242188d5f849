import { describe, expect, it } from 'vitest';
import { fillSection, templateSections } from '../../src/prompts/template.js';
import { toolTexts } from '../../src/prompts/tool-texts.js';

/** One section rendered with its values, and the exact text the model must receive. */
interface Expected {
  values?: Record<string, string>;
  text: string;
}

/*
 * The texts the agent's rooms sent the model as string literals before they became templates,
 * copied from that code: each template must render them byte for byte (tests and the prompt
 * bench compare the model's input).
 */
const EXPECTED: Record<string, Record<string, Expected>> = {
  'todo-tools': {
    'todo-add-description': {
      text: "Adds a task to the workspace's persistent to-do list (it outlives this run), worked later in order.",
    },
    'todo-add-when-to-use': {
      text: 'The user asks for something to be done later, or you find follow-up work outside the current request that must not be lost.',
    },
    'todo-add-when-not-to-use': {
      text: 'Steps of the current request, or work already on the list (todo_list).',
    },
    'todo-add-refused': {
      values: { limit: '20' },
      text: 'Refused: this run already added 20 tasks to the to-do list, the most one run may add. Do not add more; go on with the current request.',
    },
    'todo-add-added': {
      values: { id: 'a1b2c3', position: '2', title: 'Write the changelog' },
      text: 'Added task a1b2c3 as #2 on the to-do list: "Write the changelog". It runs after the work ahead of it.',
    },
    'todo-list-description': {
      text: "Lists the to-do list's open tasks (pending, in progress) in the order they run.",
    },
    'todo-list-when-to-use': { text: 'Before todo_add (no duplicates), and to see what is left.' },
    'todo-list-when-not-to-use': { text: "A plan's tasks (taskweave tracks those)." },
    'todo-complete-description': { text: 'Marks a to-do task done, with a summary.' },
    'todo-complete-when-to-use': { text: "Only when that task's objective is met and verified in this run." },
    'todo-complete-when-not-to-use': {
      text: 'An unfinished task, or the current request (it closes when you finish).',
    },
    'todo-fail-description': { text: 'Marks a to-do task failed, with the reason.' },
    'todo-fail-when-to-use': {
      text: 'It cannot be done: something it needs is missing or impossible.',
    },
    'todo-fail-when-not-to-use': { text: 'A task you can still do, or the current request.' },
  },
  'control-tools': {
    'task-completed-description': {
      text: 'Closes the current task with a summary of what was done and verified.',
    },
    'task-completed-when-to-use': {
      text: 'Its objective is met and verified; other calls of the same reply run first.',
    },
    'task-completed-when-not-to-use': {
      text: 'Before the work is checked, for another task, or to end the request (final_answer).',
    },
    'task-completed-noted': {
      text: 'Noted: the task will close once the other calls of this reply (and its check, if any) have run.',
    },
    'task-completed-other-task': {
      values: { task: 't2' },
      text: 'Task "t2" is another task of the plan: it gets its own turn.',
    },
    'task-completed-unknown-task': {
      values: { task: 't9', tasks: 't1, t2' },
      text: 'There is no task "t9" in the plan (its tasks: t1, t2).',
    },
    'task-completed-wrong-task': {
      values: {
        current_id: 't1',
        current_title: 'Scaffold',
        why: 'Task "t2" is another task of the plan: it gets its own turn.',
      },
      text: 'Refused: task_completed closes only the current task, t1 ("Scaffold"). Task "t2" is another task of the plan: it gets its own turn. Finish t1, then call task_completed without task_id (or with task_id "t1").',
    },
    'fail-task-description': {
      text: 'Gives up on the current task; the user then chooses retry, skip, revise or abort.',
    },
    'fail-task-when-to-use': {
      text: 'The task cannot be done (something needed is missing or impossible) and other ways failed.',
    },
    'fail-task-when-not-to-use': {
      text: 'An error you can still fix (fix it), or a task that is merely long.',
    },
    'fail-task-noted': { text: 'Noted: the task is marked failed.' },
    'final-answer-description': { text: 'Ends the whole request with the answer for the user.' },
    'final-answer-when-to-use': { text: 'Only when ALL tasks of the plan are done, to summarise them.' },
    'final-answer-when-not-to-use': {
      text: 'While tasks remain: it is refused (close a task with task_completed).',
    },
  },
  'plan-tool': {
    'plan-actions-description': {
      text: 'Proposes a plan: a graph of tasks with dependencies. Once the user approves it, taskweave runs the tasks (independent ones in parallel) and gives you one at a time.',
    },
    'plan-actions-when-to-use': {
      text: 'The request has several distinct parts or steps (create a project AND write files AND build it; fix several separate problems). One objective per task, which may take many tool calls; independent tasks get no dependency.',
    },
    'plan-actions-when-not-to-use': {
      text: 'A direct request that one short sequence of tool calls settles (read a file and answer, one small edit, one command).',
    },
    invalid: {
      values: { errors: '- a cycle: t1 → t2 → t1\n- unknown dependency t9' },
      text: 'The plan is invalid:\n- a cycle: t1 → t2 → t1\n- unknown dependency t9\nFix these problems and call plan_actions again.',
    },
    stopped: { text: 'The run was stopped before the plan was approved.' },
    'no-approver': {
      text: 'No one can approve the plan in this run (non-interactive, without --yes); the run ends here, waiting for approval.',
    },
    rejected: {
      values: { feedback: 'Fewer tasks.' },
      text: 'The user rejected the plan. Their feedback: Fewer tasks.\nRevise the plan accordingly and call plan_actions again.',
    },
    'approved-model-tracked': {
      text: 'The user approved the plan. Work through its tasks yourself, in this conversation; when every task is done, reply without tool calls with a short summary. That reply ends the run.',
    },
    approved: {
      values: { count: '3' },
      text: 'The user approved the plan. taskweave now runs its 3 tasks and gives you one task at a time.',
    },
    'already-approved': {
      text: 'Refused: a plan was already approved in this run and taskweave is running it; plan_actions is not called again. Work on the current task.',
    },
    'one-per-reply': {
      values: { call: 'call_1' },
      text: 'Refused: only one plan_actions call per reply. The plan of call call_1 is the one proposed; this call was not used. Put every task in one plan; if that plan is rejected, call plan_actions again with a revised plan.',
    },
  },
  approval: {
    'deny-list': {
      values: { entry: 'rm -rf' },
      text: 'Refused: `rm -rf` is on the deny list of the taskweave config, so this call is never run. Do not try to get around it; tell the user if the task needs it.',
    },
    'unreadable-line': {
      values: { why: 'it is not valid shell syntax (at its end)' },
      text: 'Not run: taskweave cannot check this command line against the deny list of the taskweave config, because it is not valid shell syntax (at its end). Write it as valid bash (one command per line, quotes and braces closed) and call again.',
    },
    'plan-only': {
      text: 'Refused: taskweave runs in plan-only mode (--approval plan-only), where only read-only tools run and nothing is changed. Describe the change you would make instead.',
    },
    stopped: { text: 'Not run: the run was stopped by the user.' },
    'no-approver': { text: "Not run: this call needs the user's approval and no one can give it now." },
    'denied-with-reason': {
      values: { reason: 'not on main' },
      text: 'The user did not allow this call. Their reason: not on main. Do not repeat it as is; take their reason into account or choose another way.',
    },
    denied: {
      text: 'The user did not allow this call (no reason given). Do not repeat it as is; take their reason into account or choose another way.',
    },
  },
  'roa-notes': {
    'reasoning-heading': {
      values: { step: '4' },
      text: '[taskweave] Your reasoning for step 4 (before acting):',
    },
    'reasoning-plan': { values: { plan: 'Edit src/a.ts' }, text: 'Plan: Edit src/a.ts' },
    'reasoning-tools': {
      values: { tools: 'read_file, edit_file' },
      text: 'Tools to consider: read_file, edit_file',
    },
    'reasoning-finish': { text: 'You judged the work done: finish now as your instructions say.' },
    'reasoning-act': { text: 'Now act on it: make the tool calls this step needs.' },
    observation: {
      values: { step: '4', observation: 'The file compiles.' },
      text: '[taskweave] Your observation of step 4:\nThe file compiles.',
    },
  },
  'plan-turns': {
    'final-answer': {
      values: { goal: 'Build the site.', summaries: '- Task t1 (Scaffold): done', count: '1' },
      text: '=== USER REQUEST ===\nBuild the site.\n\n=== COMPLETED TASKS ===\n- Task t1 (Scaffold): done\n\n=== INSTRUCTIONS ===\nAll 1 tasks are done. Call final_answer with the answer for the user: what was done and how it was verified.',
    },
    'final-answer-accepted': { text: 'Accepted: the run ends with this answer.' },
    'revise-plan': {
      values: { goal: 'Build the site.', plan: '- t1 [failed] Scaffold — make it', done: '(none)' },
      text: '=== USER REQUEST ===\nBuild the site.\n\n=== PLAN SO FAR ===\n- t1 [failed] Scaffold — make it\n\n=== COMPLETED TASKS ===\n(none)\n\n=== INSTRUCTIONS ===\nA task failed and the user chose to revise the plan. Call plan_actions with a plan for the work that is left (do not repeat completed tasks).',
    },
    'revise-plan-with-feedback': {
      values: {
        goal: 'Build the site.',
        plan: '- t1 [failed] Scaffold — make it',
        done: '(none)',
        feedback: 'Use vite.',
      },
      text: '=== USER REQUEST ===\nBuild the site.\n\n=== PLAN SO FAR ===\n- t1 [failed] Scaffold — make it\n\n=== COMPLETED TASKS ===\n(none)\n\n=== INSTRUCTIONS ===\nA task failed and the user chose to revise the plan. The user said: Use vite. Call plan_actions with a plan for the work that is left (do not repeat completed tasks).',
    },
  },
  'compacted-task-list': {
    'in-task': {
      text: "The plan's tasks and their states are in the first message; taskweave keeps it current.",
    },
    'no-list': { text: '(no to-do list in this run)' },
    unreadable: {
      values: { error: 'database is locked' },
      text: '(the to-do list could not be read: database is locked)',
    },
  },
  'merge-conflict': {
    'resolve-no-conflict': {
      values: { goal_branch: 'taskweave/g1', branch: 'taskweave/g1/t2' },
      text: "Resolving the merge conflict: taskweave/g1 as it is now merged into this task's branch taskweave/g1/t2 without a conflict (it moved on since). Check that the task's work is still right, then call task_completed; its check runs again before it is merged.",
    },
    'resolve-one-file': {
      values: {
        goal_branch: 'taskweave/g1',
        branch: 'taskweave/g1/t2',
        files: 'a.ts',
        description: 'Both sides edited a.ts.',
      },
      text: "Resolve the merge conflict of this task. Its work is on its branch taskweave/g1/t2 in this worktree; taskweave/g1 has been merged into it and this file holds conflict markers (between <<<<<<< and ======= this task's side, between ======= and >>>>>>> the goal branch's side): a.ts.\nBoth sides edited a.ts.\nEdit each file so it keeps what both sides meant and no marker is left (read it first), then call task_completed; the task's check runs again before it is merged.",
    },
    'resolve-files': {
      values: {
        goal_branch: 'taskweave/g1',
        branch: 'taskweave/g1/t2',
        files: 'a.ts, b.ts',
        description: 'Both sides edited a.ts and b.ts.',
      },
      text: "Resolve the merge conflict of this task. Its work is on its branch taskweave/g1/t2 in this worktree; taskweave/g1 has been merged into it and these files hold conflict markers (between <<<<<<< and ======= this task's side, between ======= and >>>>>>> the goal branch's side): a.ts, b.ts.\nBoth sides edited a.ts and b.ts.\nEdit each file so it keeps what both sides meant and no marker is left (read it first), then call task_completed; the task's check runs again before it is merged.",
    },
    'markers-left': {
      values: { files: 'a.ts, b.ts' },
      text: 'The task was not closed: conflict markers (<<<<<<< or >>>>>>> lines) are still in a.ts, b.ts. Resolve them, then call task_completed again.',
    },
  },
  'answer-notes': {
    'plan-required': {
      text: 'A plan is required for this run (--plan always): call plan_actions with the tasks.',
    },
    'no-answer': {
      text: 'You ended the request without an answer. Give your answer for the user (or go on working).',
    },
  },
  'json-protocol': {
    instructions: {
      values: { shape: 'S', fields: 'F', rules: 'R', examples: 'E', tools: 'T' },
      text: [
        '# Reply format',
        'You call tools by replying with JSON. Every reply is one JSON object of this form (? marks a field you may leave out):',
        'S',
        'Fields:',
        'F',
        'Rules:',
        'R',
        'Example replies:',
        'E',
        '# Tools',
        'T',
      ].join('\n\n'),
    },
    'field-reasoning': {
      text:
        'Optional. Your thinking for this step in a few sentences: what you learned, what you do next ' +
        'and why. It is shown to the user.',
    },
    'field-tool-calls': {
      text:
        'The tools to run now, in order, each as {"name": <tool name>, "args": <arguments matching that ' +
        "tool's parameters>}. Their results come back in the next message. Use [] when no tool is needed now.",
    },
    'field-task-completed': {
      text:
        'Optional. Fill it only when the objective of the current task is met: a short summary of what was ' +
        'done and its result. Tool calls in the same reply run first. Leave it out while the task needs more work.',
    },
    'field-final-answer': {
      text:
        'Optional. Fill it only when the whole request is done (when there is a plan: only when ALL its tasks ' +
        'are done): your answer to the user. Leave it out while any work remains.',
    },
    'rule-one-object': {
      text: 'Reply with exactly one JSON object and nothing else: no text before or after it, no Markdown code fence.',
    },
    'rule-quotes': {
      text: 'Use double quotes around keys and strings; write newlines inside strings as \\n.',
    },
    'rule-no-tool': {
      values: { fields: '"task_completed" or "final_answer"' },
      text: 'When no tool is needed, fill "task_completed" or "final_answer".',
    },
    tool: {
      values: { name: 'look_up', description: 'Looks a word up.', schema: '{"type":"object"}' },
      text: '## look_up\nLooks a word up.\nParameters (JSON Schema): {"type":"object"}',
    },
    'no-tools': { text: 'There are no tools in this step: always reply with "tool_calls": [].' },
    'example-look': { text: 'I need to look before I change anything.' },
    'example-completed-reasoning': { text: 'The file is written and the check passes.' },
    'example-completed': { text: 'Wrote src/index.ts with a main function; it compiles.' },
    'example-final-answer': { text: 'Done: the project builds and its tests pass.' },
    'example-nothing': { text: 'Nothing to run in this step.' },
    'expected-shape': {
      values: { shape: '{"tool_calls": []}' },
      text: 'Expected exactly one JSON object of the form {"tool_calls": []}',
    },
    empty: { values: { expected: 'X.' }, text: 'The reply is empty. X.' },
    'no-object': {
      values: { error: 'Unexpected token', expected: 'X.' },
      text: 'The reply contains no JSON object (Unexpected token). X.',
    },
    'invalid-json': {
      values: { error: 'Unexpected token', expected: 'X.' },
      text: 'The reply is not valid JSON: Unexpected token. X.',
    },
    'wrong-fields': {
      values: { issues: 'answer: unknown key', expected: 'X.' },
      text: 'The JSON object does not have the expected fields: answer: unknown key. X.',
    },
    'no-results': { text: 'No tools were run. Reply with your next JSON object.' },
    results: {
      values: { results: '1. read_file {"path":"a"} → OK\nhello' },
      text: 'Results of your tool calls:\n\n1. read_file {"path":"a"} → OK\nhello\n\nReply with your next JSON object.',
    },
    'parse-error': {
      values: { error: 'The reply is empty.' },
      text:
        'Your last reply was not a valid JSON object: The reply is empty.\n' +
        'Reply again with exactly one JSON object of that form and nothing else: no text before or after it, ' +
        'no code fence.',
    },
  },
  'task-notes': {
    'no-tool-call': {
      text: 'You replied without calling a tool. Go on with the current task using the tools, or call task_completed with a summary if it is done.',
    },
    'observed-done': {
      text: 'Your observation says the current task is done, but it is still open: call task_completed with a summary (or fail_task) in the next step.',
    },
  },
  'final-answer-refusal': {
    'current-task-open': {
      values: { task: 'Write tests' },
      text: 'Not yet: the current task "Write tests" is still open. Close it with task_completed; taskweave then asks for the final answer.',
    },
    'tasks-remain': {
      values: { remaining: '2', total: '3', task: 'Write tests' },
      text: 'Refused: 2 of 3 tasks are not done yet, the current task "Write tests" among them. Keep working on the current task and call task_completed when it is done; taskweave asks for the final answer after the last task.',
    },
    'user-said': {
      values: { answer: 'Go on.' },
      text: 'The user was asked because you kept trying to finish early. The user said: Go on.',
    },
    'no-answer': {
      text: 'You kept trying to finish while tasks remain. Finish the current task and call task_completed.',
    },
  },
  recovery: {
    repeating: {
      values: { tool: 'read_file', count: '3' },
      text: 'You are repeating yourself: read_file was called with the same arguments 3 times in a row. Its result will not change. Do something different, or finish if the goal is met.',
    },
    'user-said': {
      values: { action: 'run_command npm test', limit: '3', answer: 'Skip the tests.' },
      text: 'run_command npm test failed 3 times, so the user was asked for guidance. The user said: Skip the tests.',
    },
    'no-answer': {
      values: { action: 'run_command npm test', limit: '3' },
      text: 'run_command npm test failed 3 times and the user did not answer in time. Try a clearly different approach.',
    },
  },
  'reply-limits': {
    'repeated-note': {
      values: { tool: 'run_command', limit: '5', ran: '4', not_run: '7' },
      text: 'Your reply made the same run_command call 5 or more times in a row; it ran 4 times and the rest of the reply (7 calls) was not run.',
    },
    'repeated-not-run': {
      values: { limit: '5' },
      text: 'Not run: the same call 5 times in a row in one reply.',
    },
    'too-many': {
      values: { calls: '25', limit: '20', dropped: '5' },
      text: 'Your reply made 25 tool calls; at most 20 run per reply, so the first 20 ran and the other 5 were dropped (not run). Make the calls that are still needed in your next reply.',
    },
  },
  'non-answer': {
    empty: {
      text: 'Your last reply was empty: no text and no tool call. Continue the work: call the tools you need, or give your answer.',
    },
    'cut-off': {
      text: 'Your last reply was cut off at the output token limit (finish reason: length), so it was not used. Continue in smaller pieces: make the tool calls you need (write a large file in parts), or give a shorter answer.',
    },
    filtered: {
      text: "Your last reply was stopped by the provider's content filter, so it was not used. Continue the work, worded differently.",
    },
    'reasoning-only': {
      text: 'Your last reply had only "reasoning": no "tool_calls" and no "final_answer" (or "task_completed" in a task), so it did nothing. Continue: put the tools you need in "tool_calls", or your answer in "final_answer".',
    },
  },
};

describe("the agent's model-facing texts as templates", () => {
  for (const [template, sections] of Object.entries(EXPECTED)) {
    it(`${template}.md renders each text word for word, and holds no other`, () => {
      expect([...templateSections(template).keys()].sort()).toEqual(Object.keys(sections).sort());
      for (const [section, expected] of Object.entries(sections)) {
        expect(fillSection(template, section, expected.values), `${template}: ${section}`).toBe(
          expected.text,
        );
      }
    });
  }

  it('fails loudly on a missing value, a missing section or a missing template', () => {
    expect(() => fillSection('plan-tool', 'approved')).toThrow('no value for {{count}}');
    expect(() => fillSection('recovery', 'no-answer', { action: 'run_command' })).toThrow('{{limit}}');
    expect(() => fillSection('plan-tool', 'approved-later')).toThrow(
      'plan-tool has no section approved-later',
    );
    expect(() => fillSection('no-such-template', 'text')).toThrow();
  });

  it("gives a tool its description, when to use it and when not, from the tool's sections", () => {
    expect(toolTexts('control-tools', 'fail-task')).toEqual({
      description: 'Gives up on the current task; the user then chooses retry, skip, revise or abort.',
      whenToUse: 'The task cannot be done (something needed is missing or impossible) and other ways failed.',
      whenNotToUse: 'An error you can still fix (fix it), or a task that is merely long.',
    });
    expect(() => toolTexts('control-tools', 'abort-task')).toThrow(
      'control-tools has no section abort-task-description',
    );
  });
});
