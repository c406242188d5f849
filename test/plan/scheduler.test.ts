import { describe, expect, it } from 'vitest';
import {
  type FailureDecision,
  type FailureInfo,
  PlanScheduler,
  type TaskOutcome,
} from '../../src/plan/scheduler.js';
import { type PlanTask, type TaskGraph, type TaskState, validatePlan } from '../../src/plan/task-graph.js';

function task(id: string, dependsOn: string[] = []): PlanTask {
  return { id, title: `Title ${id}`, description: `Do ${id}`, depends_on: dependsOn };
}

function graphOf(tasks: PlanTask[]): TaskGraph {
  const result = validatePlan(tasks);
  if (!result.ok) throw new Error(result.errors.join(' | '));
  return result.graph;
}

/** Resolves after `ms`, or rejects as soon as the signal aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

interface Span {
  start: number;
  end: number;
}

/**
 * A fake task runner: each task sleeps its own delay (real timers) and then completes, unless
 * `fail` says otherwise. Records start/end times, attempts, signals and the peak concurrency.
 */
function fakeRunner(options: {
  delays?: Record<string, number>;
  fail?: (id: string, attempt: number) => boolean;
}) {
  const spans = new Map<string, Span>();
  const attempts = new Map<string, number>();
  const signals = new Map<string, AbortSignal>();
  let running = 0;
  let peak = 0;
  const runTask = async (planTask: PlanTask, signal: AbortSignal): Promise<TaskOutcome> => {
    const attempt = (attempts.get(planTask.id) ?? 0) + 1;
    attempts.set(planTask.id, attempt);
    signals.set(planTask.id, signal);
    const start = performance.now();
    running++;
    peak = Math.max(peak, running);
    try {
      await sleep(options.delays?.[planTask.id] ?? 20, signal);
      if (options.fail?.(planTask.id, attempt)) return { status: 'failed', reason: `${planTask.id} broke` };
      return { status: 'completed', summary: `${planTask.id} done` };
    } finally {
      running--;
      spans.set(planTask.id, { start, end: performance.now() });
    }
  };
  return { runTask, spans, attempts, signals, peak: () => peak };
}

function stateLog() {
  const changes: string[] = [];
  const onStateChange = (id: string, state: TaskState) => changes.push(`${id}:${state}`);
  return { changes, onStateChange };
}

const neverAsked = async (info: FailureInfo): Promise<FailureDecision> => {
  throw new Error(`onFailure was not expected (task ${info.task.id})`);
};

describe('PlanScheduler', () => {
  it('runs the two middle tasks of a diamond in parallel and the last after both', async () => {
    const runner = fakeRunner({ delays: { a: 10, b: 40, c: 40, d: 10 } });
    const scheduler = new PlanScheduler({
      graph: graphOf([task('a'), task('b', ['a']), task('c', ['a']), task('d', ['b', 'c'])]),
      runTask: runner.runTask,
      onFailure: neverAsked,
    });
    const result = await scheduler.run();

    expect(result.status).toBe('completed');
    expect([...result.states.values()]).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(result.outcomes.get('d')).toEqual({ status: 'completed', summary: 'd done' });
    const { a, b, c, d } = Object.fromEntries(runner.spans) as Record<string, Span>;
    expect(b!.start).toBeGreaterThanOrEqual(a!.end);
    expect(c!.start).toBeGreaterThanOrEqual(a!.end);
    expect(b!.start).toBeLessThan(c!.end);
    expect(c!.start).toBeLessThan(b!.end);
    expect(d!.start).toBeGreaterThanOrEqual(Math.max(b!.end, c!.end));
    // b and c after a, d after the later of b and c.
    expect(scheduler.dispatchDelaysMs).toHaveLength(3);
    for (const delay of scheduler.dispatchDelaysMs) expect(delay).toBeGreaterThanOrEqual(0);
  });

  it('never runs more tasks at once than the concurrency limit', async () => {
    const tasks = Array.from({ length: 8 }, (_, index) => task(`t${index}`));
    const limited = fakeRunner({});
    const result = await new PlanScheduler({
      graph: graphOf(tasks),
      concurrency: 3,
      runTask: limited.runTask,
      onFailure: neverAsked,
    }).run();
    expect(result.status).toBe('completed');
    expect(limited.spans.size).toBe(8);
    expect(limited.peak()).toBe(3);

    const byDefault = fakeRunner({});
    await new PlanScheduler({
      graph: graphOf(tasks),
      runTask: byDefault.runTask,
      onFailure: neverAsked,
    }).run();
    expect(byDefault.peak()).toBe(4);
  });

  it('refuses a concurrency below 1', () => {
    const graph = graphOf([task('a')]);
    const runTask = fakeRunner({}).runTask;
    expect(() => new PlanScheduler({ graph, concurrency: 0, runTask, onFailure: neverAsked })).toThrow(
      RangeError,
    );
  });

  it('blocks the dependents of a failed task, finishes the independent branch, then asks (revise)', async () => {
    const runner = fakeRunner({ delays: { a: 5, x: 40, y: 20 }, fail: (id) => id === 'a' });
    const log = stateLog();
    const asked: { info: FailureInfo; statesThen: string[] }[] = [];
    const result = await new PlanScheduler({
      graph: graphOf([task('a'), task('b', ['a']), task('c', ['b']), task('x'), task('y', ['x'])]),
      runTask: runner.runTask,
      onStateChange: log.onStateChange,
      onFailure: async (info) => {
        asked.push({ info, statesThen: [...log.changes] });
        return { action: 'revise' };
      },
    }).run();

    expect(result.status).toBe('revise');
    expect(Object.fromEntries(result.states)).toEqual({
      a: 'failed',
      b: 'blocked',
      c: 'blocked',
      x: 'completed',
      y: 'completed',
    });
    expect(result.outcomes.get('a')).toEqual({ status: 'failed', reason: 'a broke' });
    expect(runner.spans.has('b')).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.info.task.id).toBe('a');
    expect(asked[0]!.info.reason).toBe('a broke');
    expect(asked[0]!.info.blocked.map((t) => t.id)).toEqual(['b', 'c']);
    // Asked only after the independent branch had finished.
    expect(asked[0]!.statesThen).toContain('y:completed');
    expect(log.changes.indexOf('b:blocked')).toBeLessThan(log.changes.indexOf('x:completed'));
  });

  it('retries a failed task, then runs its dependents', async () => {
    const runner = fakeRunner({ fail: (id, attempt) => id === 'a' && attempt === 1 });
    const log = stateLog();
    const result = await new PlanScheduler({
      graph: graphOf([task('a'), task('b', ['a'])]),
      runTask: runner.runTask,
      onStateChange: log.onStateChange,
      onFailure: async () => ({ action: 'retry' }),
    }).run();

    expect(result.status).toBe('completed');
    expect(runner.attempts.get('a')).toBe(2);
    expect(runner.attempts.get('b')).toBe(1);
    expect(log.changes).toEqual([
      'a:in_progress',
      'a:failed',
      'b:blocked',
      'a:pending',
      'b:pending',
      'a:in_progress',
      'a:completed',
      'b:in_progress',
      'b:completed',
    ]);
  });

  it('skips a failed task and runs its dependents', async () => {
    const runner = fakeRunner({ fail: (id) => id === 'a' });
    const result = await new PlanScheduler({
      graph: graphOf([task('a'), task('b', ['a']), task('c', ['b'])]),
      runTask: runner.runTask,
      onFailure: async () => ({ action: 'skip' }),
    }).run();

    expect(result.status).toBe('completed');
    expect(Object.fromEntries(result.states)).toEqual({ a: 'skipped', b: 'completed', c: 'completed' });
    expect(runner.attempts.get('a')).toBe(1);
  });

  it('aborts: running tasks see an aborted signal and the run ends aborted', async () => {
    // f1 and f2 both fail; f1 is retried (its second attempt hangs), then the answer for f2 is abort.
    const signals = new Map<string, AbortSignal>();
    let f1Attempts = 0;
    const runTask = async (planTask: PlanTask, signal: AbortSignal): Promise<TaskOutcome> => {
      signals.set(planTask.id, signal);
      if (planTask.id === 'f1' && ++f1Attempts === 2) {
        await sleep(60_000, signal);
        return { status: 'completed', summary: 'too late' };
      }
      await sleep(5);
      return { status: 'failed', reason: `${planTask.id} broke` };
    };
    const started = performance.now();
    const result = await new PlanScheduler({
      graph: graphOf([task('f1'), task('f2'), task('after', ['f1'])]),
      runTask,
      onFailure: async (info) => {
        if (info.task.id === 'f1') return { action: 'retry' };
        await sleep(20);
        return { action: 'abort' };
      },
    }).run();

    expect(result.status).toBe('aborted');
    expect(f1Attempts).toBe(2);
    expect(signals.get('f1')!.aborted).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(Object.fromEntries(result.states)).toEqual({ f1: 'cancelled', f2: 'failed', after: 'pending' });
  });

  it('stops on the run signal: running tasks are aborted and nothing new starts', async () => {
    const runner = fakeRunner({ delays: { a: 60_000, quick: 5, c: 5 } });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const result = await new PlanScheduler({
      graph: graphOf([task('a'), task('quick'), task('b', ['a']), task('c', ['quick'])]),
      concurrency: 2,
      runTask: runner.runTask,
      onFailure: neverAsked,
    }).run(stop.signal);

    expect(result.status).toBe('stopped');
    expect(runner.signals.get('a')!.aborted).toBe(true);
    expect(Object.fromEntries(result.states)).toEqual({
      a: 'cancelled',
      quick: 'completed',
      b: 'pending',
      c: 'completed',
    });
    expect(runner.spans.has('b')).toBe(false);
  });

  it('starts nothing when the signal is already aborted', async () => {
    const runner = fakeRunner({});
    const result = await new PlanScheduler({
      graph: graphOf([task('a')]),
      runTask: runner.runTask,
      onFailure: neverAsked,
    }).run(AbortSignal.abort());
    expect(result.status).toBe('stopped');
    expect(runner.attempts.size).toBe(0);
    expect(result.states.get('a')).toBe('pending');
  });

  it('stops while a failure question is open', async () => {
    const runner = fakeRunner({ fail: (id) => id === 'a' });
    const stop = new AbortController();
    const result = await new PlanScheduler({
      graph: graphOf([task('a'), task('b', ['a'])]),
      runTask: runner.runTask,
      onFailure: () => {
        setTimeout(() => stop.abort(), 10);
        return new Promise<FailureDecision>(() => {});
      },
    }).run(stop.signal);
    expect(result.status).toBe('stopped');
    expect(Object.fromEntries(result.states)).toEqual({ a: 'failed', b: 'blocked' });
  });

  it('does not re-run tasks completed in an earlier run and re-runs an interrupted one', async () => {
    const runner = fakeRunner({});
    const result = await new PlanScheduler({
      graph: graphOf([task('a'), task('b'), task('c', ['a', 'b'])]),
      initialState: new Map<string, TaskState>([
        ['a', 'completed'],
        ['b', 'in_progress'],
      ]),
      runTask: runner.runTask,
      onFailure: neverAsked,
    }).run();

    expect(result.status).toBe('completed');
    expect([...runner.attempts.keys()].sort()).toEqual(['b', 'c']);
    expect(result.outcomes.has('a')).toBe(false);
    expect(Object.fromEntries(result.states)).toEqual({ a: 'completed', b: 'completed', c: 'completed' });
  });

  it('counts a throwing runTask as failed with the error message', async () => {
    const reasons: string[] = [];
    const result = await new PlanScheduler({
      graph: graphOf([task('sync'), task('async'), task('after', ['sync', 'async'])]),
      runTask: async (planTask) => {
        if (planTask.id === 'async') {
          await sleep(5);
          throw new Error('disk full');
        }
        return { status: 'completed', summary: 'ok' };
      },
      onFailure: async (info) => {
        reasons.push(`${info.task.id}: ${info.reason}`);
        return { action: 'skip' };
      },
    }).run();
    expect(reasons).toEqual(['async: disk full']);
    expect(result.status).toBe('completed');
    expect(result.states.get('after')).toBe('completed');

    const syncThrow = await new PlanScheduler({
      graph: graphOf([task('a')]),
      runTask: (): Promise<TaskOutcome> => {
        throw new Error('bad config');
      },
      onFailure: async () => ({ action: 'revise' }),
    }).run();
    expect(syncThrow.status).toBe('revise');
    expect(syncThrow.outcomes.get('a')).toEqual({ status: 'failed', reason: 'bad config' });
  });

  it('rejects the run when a callback throws', async () => {
    const run = new PlanScheduler({
      graph: graphOf([task('a')]),
      runTask: fakeRunner({}).runTask,
      onFailure: neverAsked,
      onStateChange: (id, state) => {
        if (state === 'completed') throw new Error(`listener broke on ${id}`);
      },
    }).run();
    await expect(run).rejects.toThrow('listener broke on a');
  });
});
