import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type FailureChooser,
  type InputProvider,
  type PlanApprover,
  RunControl,
} from '../../src/agent/control.js';
import { type RunAgentOptions, type RunResult, runAgent } from '../../src/agent/run-agent.js';
import { EventBus } from '../../src/events/bus.js';
import type { ServerEvent } from '../../src/events/registry.js';
import type { ResolvedModel } from '../../src/model/types.js';
import type { Tool } from '../../src/tools/types.js';
import { Workspace } from '../../src/tools/workspace.js';

export interface HarnessOptions {
  model: ResolvedModel;
  goal?: string;
  tools?: Tool[];
  maxSteps?: number;
  inputProvider?: InputProvider;
  inputTimeoutMs?: number;
  planApprover?: PlanApprover;
  failureChooser?: FailureChooser;
  plan?: RunAgentOptions['plan'];
  concurrency?: number;
  onFailure?: RunAgentOptions['onFailure'];
  protocol?: RunAgentOptions['protocol'];
  loop?: RunAgentOptions['loop'];
  stores?: RunAgentOptions['stores'];
  ownTaskId?: string;
  workspaceRoot?: string;
  /** Called with each event as it is emitted (e.g. to stop the run at a given moment). */
  onEvent?: (event: ServerEvent, control: RunControl) => void;
}

/** A finished run with everything a test wants to look at. */
export interface HarnessRun {
  result: RunResult;
  events: ServerEvent[];
  workspace: Workspace;
  control: RunControl;
}

/** Makes a fresh temp folder for a workspace. */
export async function tempWorkspaceRoot(prefix = 'taskweave-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

/** Runs the agent on a temp workspace with a real bus, collecting every event. */
export async function runWithHarness(options: HarnessOptions): Promise<HarnessRun> {
  const workspace = await Workspace.open(options.workspaceRoot ?? (await tempWorkspaceRoot()));
  const control = new RunControl({
    inputProvider: options.inputProvider,
    inputTimeoutMs: options.inputTimeoutMs,
    planApprover: options.planApprover,
    failureChooser: options.failureChooser,
  });
  const bus = new EventBus({ sessionId: 'test-session' });
  const events: ServerEvent[] = [];
  bus.subscribe((event) => {
    events.push(event);
    options.onEvent?.(event, control);
  });
  const result = await runAgent({
    goal: options.goal ?? 'do the thing',
    model: options.model,
    workspace,
    bus,
    control,
    maxSteps: options.maxSteps,
    tools: options.tools,
    plan: options.plan,
    concurrency: options.concurrency,
    onFailure: options.onFailure,
    protocol: options.protocol,
    loop: options.loop,
    stores: options.stores,
    ownTaskId: options.ownTaskId,
  });
  return { result, events, workspace, control };
}

/** The update types and top-level types of events, in order, for sequence assertions. */
export function eventKinds(events: ServerEvent[]): string[] {
  return events.map((event) => (event.type === 'agent_update' ? event.update_type : event.type));
}
