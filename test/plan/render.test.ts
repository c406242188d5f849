import { describe, expect, it } from 'vitest';
import { renderPlanLayers } from '../../src/plan/render.js';
import { type PlanTask, validatePlan } from '../../src/plan/task-graph.js';

function render(tasks: PlanTask[]): string {
  const result = validatePlan(tasks);
  if (!result.ok) throw new Error(result.errors.join(' | '));
  return renderPlanLayers(result.graph);
}

describe('renderPlanLayers', () => {
  it('groups tasks by step, marks parallel steps and dependencies, and ends with the critical path', () => {
    const text = render([
      { id: 'setup', title: 'Create the project', description: 'npm init\nand tsconfig', depends_on: [] },
      { id: 'html', title: 'Write public/index.html', description: '', depends_on: [] },
      { id: 'code', title: 'Write src/index.ts', description: 'A main function', depends_on: ['setup'] },
      { id: 'test', title: 'Run it', description: 'node dist/index.js', depends_on: ['code', 'html'] },
    ]);
    expect(text).toBe(
      [
        'Step 1 (2 in parallel)',
        '  [setup] Create the project — npm init and tsconfig',
        '  [html] Write public/index.html',
        'Step 2',
        '  [code] Write src/index.ts — A main function (after: setup)',
        'Step 3',
        '  [test] Run it — node dist/index.js (after: code, html)',
        'Critical path: 3 tasks (setup → code → test)',
      ].join('\n'),
    );
  });

  it('shows a task’s check under its line', () => {
    expect(
      render([
        { id: 'build', title: 'Fix the build', description: '', depends_on: [], check: 'npx tsc\n --noEmit' },
      ]),
    ).toBe('Step 1\n  [build] Fix the build\n      check: npx tsc --noEmit\nCritical path: 1 task (build)');
  });

  it('renders a one-task plan', () => {
    expect(render([{ id: 'only', title: 'Do it', description: 'all of it', depends_on: [] }])).toBe(
      'Step 1\n  [only] Do it — all of it\nCritical path: 1 task (only)',
    );
  });
});
