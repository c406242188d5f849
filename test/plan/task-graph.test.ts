import { describe, expect, it } from 'vitest';
import { planTasksSchema } from '../../src/plan/plan-schema.js';
import {
  MAX_PLAN_TASKS,
  type PlanTask,
  type TaskGraph,
  type TaskState,
  validatePlan,
} from '../../src/plan/task-graph.js';

function task(id: string, dependsOn: string[] = []): PlanTask {
  return { id, title: `Title ${id}`, description: `Do ${id}`, depends_on: dependsOn };
}

function graphOf(tasks: PlanTask[]): TaskGraph {
  const result = validatePlan(tasks);
  if (!result.ok) throw new Error(`expected a valid plan, got: ${result.errors.join(' | ')}`);
  return result.graph;
}

function errorsOf(tasks: PlanTask[]): string[] {
  const result = validatePlan(tasks);
  if (result.ok) throw new Error('expected the plan to be refused');
  return result.errors;
}

const diamond = () => [task('a'), task('b', ['a']), task('c', ['a']), task('d', ['b', 'c'])];

describe('planTasksSchema', () => {
  it('defaults depends_on to an empty list and keeps check', () => {
    const parsed = planTasksSchema.parse({
      tasks: [{ id: 't1', title: 'Init', description: 'npm init', check: 'test -f package.json' }],
    });
    expect(parsed.tasks[0]).toEqual({
      id: 't1',
      title: 'Init',
      description: 'npm init',
      depends_on: [],
      check: 'test -f package.json',
    });
  });

  it('refuses an empty id', () => {
    const result = planTasksSchema.safeParse({ tasks: [{ id: '', title: 'x', description: 'y' }] });
    expect(result.success).toBe(false);
  });
});

describe('validatePlan', () => {
  it('accepts a valid plan and keeps plan order', () => {
    expect(graphOf(diamond()).tasks.map((t) => t.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses an empty plan', () => {
    expect(errorsOf([])).toEqual(['The plan has no tasks. A plan needs at least one task.']);
  });

  it(`refuses more than ${MAX_PLAN_TASKS} tasks`, () => {
    const tasks = Array.from({ length: MAX_PLAN_TASKS + 1 }, (_, index) => task(`t${index}`));
    expect(errorsOf(tasks)).toEqual([
      `The plan has ${MAX_PLAN_TASKS + 1} tasks; at most ${MAX_PLAN_TASKS} are allowed. Merge small steps into larger tasks.`,
    ]);
    expect(validatePlan(tasks.slice(0, MAX_PLAN_TASKS)).ok).toBe(true);
  });

  it('names duplicate ids', () => {
    expect(errorsOf([task('a'), task('b'), task('a')])).toEqual([
      'The id "a" is used by 2 tasks (positions 1, 3); every task needs its own id.',
    ]);
  });

  it('names a task that depends on itself', () => {
    expect(errorsOf([task('a'), task('b', ['a', 'b'])])).toEqual([
      'Task "b" depends on itself; remove "b" from its depends_on.',
    ]);
  });

  it('names unknown dependencies with the task and the valid ids', () => {
    expect(errorsOf([task('setup'), task('code', ['setup', 'lint']), task('docs', ['readme'])])).toEqual([
      'Task "code" depends on "lint", which is not a task in this plan. Valid ids: setup, code, docs.',
      'Task "docs" depends on "readme", which is not a task in this plan. Valid ids: setup, code, docs.',
    ]);
  });

  it('names a 3-cycle as a path starting at its earliest task', () => {
    expect(errorsOf([task('x'), task('a', ['b']), task('b', ['c']), task('c', ['a', 'x'])])).toEqual([
      'Dependency cycle: a → b → c → a (each task depends on the next). Remove one of these dependencies.',
    ]);
  });

  it('reports the same cycle once when it is reached from several tasks', () => {
    const errors = errorsOf([task('d', ['a']), task('e', ['b']), task('a', ['b']), task('b', ['a'])]);
    expect(errors).toEqual([
      'Dependency cycle: a → b → a (each task depends on the next). Remove one of these dependencies.',
    ]);
  });

  it('reports two distinct cycles', () => {
    const errors = errorsOf([
      task('a', ['b']),
      task('b', ['a']),
      task('c', ['a', 'd']),
      task('d', ['e']),
      task('e', ['c']),
    ]);
    expect(errors).toEqual([
      'Dependency cycle: a → b → a (each task depends on the next). Remove one of these dependencies.',
      'Dependency cycle: c → d → e → c (each task depends on the next). Remove one of these dependencies.',
    ]);
  });

  it('collects several errors at once', () => {
    const errors = errorsOf([task('a', ['a']), task('a'), task('b', ['zz', 'c']), task('c', ['b'])]);
    expect(errors).toEqual([
      'The id "a" is used by 2 tasks (positions 1, 2); every task needs its own id.',
      'Task "a" depends on itself; remove "a" from its depends_on.',
      'Task "b" depends on "zz", which is not a task in this plan. Valid ids: a, b, c.',
      'Dependency cycle: b → c → b (each task depends on the next). Remove one of these dependencies.',
    ]);
  });
});

describe('TaskGraph', () => {
  it('gives direct dependencies, direct dependents and transitive dependents', () => {
    const graph = graphOf([...diamond(), task('e', ['d']), task('f')]);
    expect(graph.dependenciesOf('d')).toEqual(['b', 'c']);
    expect(graph.dependentsOf('a')).toEqual(['b', 'c']);
    expect(graph.transitiveDependentsOf('a')).toEqual(['b', 'c', 'd', 'e']);
    expect(graph.transitiveDependentsOf('c')).toEqual(['d', 'e']);
    expect(graph.transitiveDependentsOf('f')).toEqual([]);
    expect(graph.get('zz')).toBeUndefined();
    expect(() => graph.dependentsOf('zz')).toThrow('The plan has no task "zz".');
  });

  it('is immutable', () => {
    const tasks = diamond();
    const graph = graphOf(tasks);
    tasks[3]!.depends_on.push('a');
    expect(graph.dependenciesOf('d')).toEqual(['b', 'c']);
    expect(() => (graph.tasks[0] as PlanTask).depends_on.push('x')).toThrow(TypeError);
  });

  describe('readySet', () => {
    const graph = graphOf(diamond());
    const states = (entries: [string, TaskState][]) => new Map<string, TaskState>(entries);

    it('starts with the tasks that have no dependencies', () => {
      expect(graph.readySet(new Map())).toEqual(['a']);
    });

    it('includes tasks whose dependencies completed or were skipped', () => {
      expect(graph.readySet(states([['a', 'completed']]))).toEqual(['b', 'c']);
      expect(graph.readySet(states([['a', 'skipped']]))).toEqual(['b', 'c']);
      expect(
        graph.readySet(
          states([
            ['a', 'completed'],
            ['b', 'completed'],
            ['c', 'skipped'],
          ]),
        ),
      ).toEqual(['d']);
    });

    it('excludes tasks with a failed or unfinished dependency, and tasks that are not pending', () => {
      expect(graph.readySet(states([['a', 'failed']]))).toEqual([]);
      expect(
        graph.readySet(
          states([
            ['a', 'completed'],
            ['b', 'failed'],
            ['c', 'in_progress'],
          ]),
        ),
      ).toEqual([]);
      expect(
        graph.readySet(
          states([
            ['a', 'completed'],
            ['b', 'completed'],
            ['c', 'completed'],
            ['d', 'blocked'],
          ]),
        ),
      ).toEqual([]);
    });
  });

  describe('layers', () => {
    it('puts a chain one task per layer', () => {
      expect(graphOf([task('c', ['b']), task('a'), task('b', ['a'])]).layers()).toEqual([
        ['a'],
        ['b'],
        ['c'],
      ]);
    });

    it('puts a fan-out beside each other', () => {
      const graph = graphOf([task('root'), task('x', ['root']), task('y', ['root']), task('z', ['root'])]);
      expect(graph.layers()).toEqual([['root'], ['x', 'y', 'z']]);
    });

    it('places a diamond in three layers, and a task after its deepest dependency', () => {
      expect(graphOf(diamond()).layers()).toEqual([['a'], ['b', 'c'], ['d']]);
      const skewed = graphOf([
        task('a'),
        task('b', ['a']),
        task('c', ['b']),
        task('d', ['a', 'c']),
        task('e'),
      ]);
      expect(skewed.layers()).toEqual([['a', 'e'], ['b'], ['c'], ['d']]);
    });
  });

  describe('critical path', () => {
    const graph = graphOf([task('a'), task('b', ['a']), task('c', ['a']), task('d', ['b', 'c']), task('e')]);

    it('counts tasks along the longest chain', () => {
      expect(graph.criticalPathLength()).toBe(3);
      expect(graph.criticalPath()).toEqual(['a', 'b', 'd']);
      expect(graphOf([task('solo')]).criticalPathLength()).toBe(1);
    });

    it('sums weights when given', () => {
      const minutes: Record<string, number> = { a: 1, b: 2, c: 10, d: 1, e: 5 };
      const weight = (id: string) => minutes[id]!;
      expect(graph.criticalPathLength(weight)).toBe(12);
      expect(graph.criticalPath(weight)).toEqual(['a', 'c', 'd']);
      expect(graph.criticalPathLength(() => 0)).toBe(0);
    });
  });
});
