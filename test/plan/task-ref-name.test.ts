import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { type PlanTask, validatePlan } from '../../src/plan/task-graph.js';
import { taskRefName } from '../../src/plan/task-ref-name.js';

/** Ids a lossy encoding (everything unsafe to `-`) would merge, and ids that look like encodings. */
const IDS = [
  '设置',
  '测试',
  '-',
  'a b',
  'a-b',
  'a_b',
  'a.b',
  'a..b',
  'a~b',
  'a:b',
  'a/b',
  'a\\b',
  '.a',
  'a',
  '-a',
  'a.lock',
  'a-lock',
  '_a_20-b',
  '_a',
  'x',
  'task-1',
  'write_file',
  'Ünïcödé',
  '🙂',
];

function task(id: string): PlanTask {
  return { id, title: id, description: id, depends_on: [] };
}

describe('task ids as ref names', () => {
  it('every id gets its own name, which git accepts in a branch; plain ids keep theirs', () => {
    const names = IDS.map(taskRefName);
    expect(new Set(names).size).toBe(IDS.length);
    for (const name of names) {
      // Throws (exit 1) for a name git refuses.
      execFileSync('git', ['check-ref-format', `refs/heads/taskweave/plan_1.${name}`]);
    }
    for (const plain of ['a', 'a-b', 'a_b', 'a.b', 'task-1', 'write_file', 'x'])
      expect(taskRefName(plain)).toBe(plain);
  });

  it('a plan of such ids validates: no two of its tasks can share a branch', () => {
    const validation = validatePlan(IDS.map(task));
    expect(validation).toMatchObject({ ok: true });
  });
});
