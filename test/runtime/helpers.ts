import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { RequestPolicy } from '../../src/agent/state/control.js';
import type { ServerEvent } from '../../src/events/registry.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import { writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** Every request goes to a front end: the runtime API answers it. */
export const ASK_ALL: RequestPolicy = { input: 'ask', plan: 'ask', failure: 'ask' };
/** Plans are approved at once (`--yes`), nobody answers questions, failures abort. */
export const APPROVE_PLANS: RequestPolicy = { input: 'nobody', plan: 'approve', failure: 'abort' };

const opened: Runtime[] = [];

afterEach(async () => {
  for (const runtime of opened.splice(0)) {
    runtime.stop();
    await runtime.close();
  }
});

/** Writes a script of model turns to a temp folder; returns the `script:` model id. */
export async function scriptModel(turns: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const folder = await tempWorkspaceRoot('taskweave-rt-script-');
  return `script:${await writeScript(folder, { ...extra, turns })}`;
}

/** Opens a runtime on a fresh temp workspace (or `cwd`) with a script model; closed after the test. */
export async function openRuntime(turns: unknown[], options: Partial<RuntimeOptions> = {}): Promise<Runtime> {
  const runtime = await Runtime.open({
    cwd: options.cwd ?? (await tempWorkspaceRoot('taskweave-rt-')),
    model: options.model ?? (await scriptModel(turns)),
    plan: 'auto',
    onFailure: 'abort',
    protocol: 'native',
    policy: APPROVE_PLANS,
    // These tests are about the runtime: every call runs unasked, commands unconfined.
    approval: 'auto',
    sandbox: 'off',
    env: {},
    ...options,
  });
  opened.push(runtime);
  return runtime;
}

/** The update type of an agent_update, or the top-level type. */
export function kindOf(event: ServerEvent): string {
  return event.type === 'agent_update' ? event.update_type : event.type;
}

/** Collects every event the runtime's process logs. */
export function record(runtime: Runtime): ServerEvent[] {
  const events: ServerEvent[] = [];
  runtime.bus.subscribe((event) => events.push(event));
  return events;
}

/** Resolves with the first event (logged from now on) that matches. */
export function nextEvent<T extends ServerEvent>(
  runtime: Runtime,
  match: (event: ServerEvent) => event is T,
  // Only says a hang (a loaded machine is slow, never wrong).
  timeoutMs = 60_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('timed out waiting for an event'));
    }, timeoutMs);
    const unsubscribe = runtime.bus.subscribe((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

type Update<U extends string> = Extract<ServerEvent, { type: 'agent_update'; update_type: U }>;

/** Matches an agent_update of one update type. */
export function update<U extends string>(updateType: U): (event: ServerEvent) => event is Update<U> {
  return (event): event is Update<U> => event.type === 'agent_update' && event.update_type === updateType;
}

/** Waits until a condition holds (polling), or fails after the timeout. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/runtime-process.ts', import.meta.url));

export interface FixtureProcess {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves with the first stdout line that matches. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts the runtime fixture in a second real Node process (TypeScript through tsx). */
export function startFixture(args: readonly string[]): FixtureProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { cwd: REPO_ROOT });
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
      newline = buffer.indexOf('\n');
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stderr }));
    },
  );
  // No clock of its own: a line comes, the fixture ends first, or the test's timeout says it hung
  // (a fixed wait here failed on a loaded machine, where the fixture's start alone took longer).
  const waitForLine = (match: (line: string) => boolean) => {
    const seen = lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      waiters.push({ match, resolve });
      void closed.then(() =>
        reject(new Error(`the fixture ended before a matching line; stderr: ${stderr}`)),
      );
    });
  };
  return { child, lines, waitForLine, closed };
}
